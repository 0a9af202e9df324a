{
  "targets": [
    {
      "target_name": "poseidon",
      "sources": ["native/poseidon.c", "native/lanes_ifma.c", "native/lanes_avx2.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-O3", "-std=c11", "-Wall", "-Wextra"],
      "cflags!": ["-O2"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O3", "-std=c11"] }
    }
  ]
}
