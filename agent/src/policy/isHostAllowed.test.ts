import { describe, expect, it } from "vitest";

import { isHostAllowed } from "./isHostAllowed.js";

describe("isHostAllowed", () => {
  const hosts = ["localhost", "127.0.0.1", "[::1]"];

  it.each([
    ["http://localhost:4021/weather", true],
    ["https://LOCALHOST/x", true],
    ["http://127.0.0.1/", true],
    ["http://[::1]:8080/", true],
    ["http://user:pw@localhost/", true],
    ["http://127.0.0.2/", false],
    ["http://localhost.evil.example/", false],
    ["http://evil.example/?localhost", false],
    ["ftp://localhost/", false],
    ["file:///etc/passwd", false],
  ])("%s → %s", (url, allowed) => {
    expect(isHostAllowed(hosts, new URL(url))).toBe(allowed);
  });

  it("allows any http(s) host with *, but still no other scheme", () => {
    expect(isHostAllowed("*", new URL("https://anything.example/"))).toBe(true);
    expect(isHostAllowed("*", new URL("ftp://anything.example/"))).toBe(false);
  });
});
