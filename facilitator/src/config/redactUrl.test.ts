import { describe, expect, it } from "vitest";

import { describeUrlCredential, findUrlCredentials, redactUrl } from "./redactUrl.js";

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
