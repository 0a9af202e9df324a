{
  "targets": [
    {
      "target_name": "poseidon",
      "sources": ["native/poseidon.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-O3", "-std=c11", "-Wall", "-Wextra"],
      "cflags!": ["-O2"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O3", "-std=c11"] }
    }
  ]
}
