import { describe, expect, it } from "vitest";

import { isLoopbackHost, isLoopbackUrl } from "./isLoopbackHost.js";

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.255.0.9", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost", "LOCALHOST", "localhost."])(
    "treats %s as loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each(["0.0.0.0", "::", "128.0.0.1", "10.0.0.1", "::2", "localhost.example", "my-localhost", "example.com", ""])("treats %s as reachable", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("isLoopbackUrl", () => {
  it.each([
    ["http://127.0.0.1:8545", true],
    ["http://[::1]:8545", true],
    ["ws://localhost:8545", true],
    ["http://2130706433:8545", true], // the URL parser normalizes this to 127.0.0.1
    ["https://rpc.example", false],
    ["http://10.0.0.2:8545", false],
    ["not a url", false],
  ])("%s is loopback: %s", (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
