import { describe, expect, it } from "vitest";

import { describeUrlCredential, findUrlCredentials, redactUrl, redactUrlOrigin, redactUrlsInText, urlCredentialValues } from "./redactUrl.js";

describe("redactUrl", () => {
  it.each([
    ["https://user:pass@host/x", "https://***@host/x"],
    ["https://user@host:8443/x", "https://***@host:8443/x"],
    ["https://host/x?apikey=abc&chain=1", "https://host/x?apikey=***&chain=1"],
    ["https://host/?api_key=a&access_token=b&x-api-key=c&Signature=d&page=2", "https://host/?api_key=***&access_token=***&x-api-key=***&Signature=***&page=2"],
    ["https://mainnet.example.io/v3/0123456789abcdef0123456789abcdef", "https://mainnet.example.io/v3/***"],
    ["https://eth.example.com/v2/AbCdEf123456_ghIJKLmnop-q", "https://eth.example.com/v2/***"],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545/"],
    ["http://127.0.0.1:8545/rpc/some-long-word-without-digits", "http://127.0.0.1:8545/rpc/some-long-word-without-digits"],
    ["wss://u:p@rpc.example/ws?token=t#frag", "wss://***@rpc.example/ws?token=***#frag"],
    ["http://[::1]:8545/", "http://[::1]:8545/"],
  ])("renders %s as %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it("shows nothing of an unparseable URL", () => {
    expect(redactUrl("not a url with secret-abc")).toBe("[unparseable URL]");
  });

  it("keeps a parameter without a value and a parameter that only contains a secret word in its value", () => {
    expect(redactUrl("https://host/?token&q=apikey")).toBe("https://host/?token&q=apikey");
  });
});

describe("redactUrlOrigin", () => {
  it.each([
    ["https://user:pass@eth.example/v3/0123456789abcdef0123456789abcdef?apikey=k3y", "https://eth.example"],
    ["wss://rpc.example:8443/ws?token=t#frag", "wss://rpc.example:8443"],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545"],
    ["http://[::1]:8545/rpc", "http://[::1]:8545"],
    ["https://0123456789abcdef0123456789abcdef.rpc.example/", "https://***.rpc.example"],
    ["https://mainnet-archive-eu.rpc.example/", "https://mainnet-archive-eu.rpc.example"],
  ])("renders %s as %s", (url, expected) => {
    expect(redactUrlOrigin(url)).toBe(expected);
  });

  it("keeps no part of a credential anywhere in the URL", () => {
    const secrets = ["alice", "s3cretpass", "0123456789abcdef0123456789abcdef", "k3yvalue", "f00dfeedf00dfeedf00dfeed"];
    const url = `https://alice:s3cretpass@f00dfeedf00dfeedf00dfeed.rpc.example:8545/v2/${secrets[2]}?apikey=k3yvalue`;
    const shown = redactUrlOrigin(url);
    for (const secret of secrets) expect(shown).not.toContain(secret);
    expect(redactUrlOrigin("not a url with secret-abc")).toBe("[unparseable URL]");
  });
});

describe("findUrlCredentials", () => {
  it("finds nothing in a clean URL", () => {
    expect(findUrlCredentials("http://127.0.0.1:8545")).toEqual([]);
    expect(findUrlCredentials("https://rpc.example/path?chain=1")).toEqual([]);
    expect(findUrlCredentials("::not a url")).toEqual([]);
  });

  it("finds userinfo, secret-named parameters and key-like path segments", () => {
    const found = findUrlCredentials("https://u:p@rpc.example/v3/0123456789abcdef0123456789abcdef?apikey=x&auth=y&apikey=z");
    expect(found).toEqual([
      { location: "userinfo" },
      { location: "path", segment: 2 },
      { location: "query", parameter: "apikey" },
      { location: "query", parameter: "auth" },
    ]);
    expect(found.map(describeUrlCredential)).toEqual(["userinfo", "path segment 2", 'query parameter "apikey"', 'query parameter "auth"']);
  });
});

describe("urlCredentialValues", () => {
  it("lists userinfo, key-like path segments and every query value, raw and decoded", () => {
    const url = "https://alice:s3cret@rpc.example/v3/0123456789abcdef0123456789abcdef/rpc?apikey=k%2Bey123&network=mainnet";
    expect(urlCredentialValues(url)).toEqual(["alice", "s3cret", "0123456789abcdef0123456789abcdef", "k%2Bey123", "k+ey123", "mainnet"]);
  });

  it("lists nothing for a credential-free URL", () => {
    expect(urlCredentialValues("http://127.0.0.1:8545")).toEqual([]);
  });
});

describe("redactUrlsInText", () => {
  const key = "0123456789abcdef0123456789abcdef";

  it("masks a credential-bearing URL quoted by a library message and keeps the sentence around it", () => {
    const message = `HTTP request failed.\n\nURL: http://127.0.0.1:9/v3/${key}?apikey=${key}.\nRequest body: {}`;
    expect(redactUrlsInText(message)).toBe("HTTP request failed.\n\nURL: http://127.0.0.1:9/v3/***?apikey=***.\nRequest body: {}");
  });

  it("stops a URL at a JSON escape, so a key followed by an escaped newline is still recognised", () => {
    const line = JSON.stringify({ message: `URL: https://rpc.example/v3/${key}\nnext` });
    expect(redactUrlsInText(line)).toBe(JSON.stringify({ message: "URL: https://rpc.example/v3/***\nnext" }));
  });

  it("leaves credential-free URLs exactly as written", () => {
    const text = "listening on http://127.0.0.1:4021 and https://indexer.example/api?page=2";
    expect(redactUrlsInText(text)).toBe(text);
  });
});
