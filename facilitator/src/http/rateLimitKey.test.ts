import { describe, expect, it } from "vitest";

import { rateLimitKey } from "./rateLimitKey.js";

describe("rateLimitKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff::", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["unknown", "unknown"],
  ])("keys %s as %s", (ip, key) => {
    expect(rateLimitKey(ip)).toBe(key);
  });

  it("puts two addresses of one /64 in one bucket and neighbouring /64s in two", () => {
    expect(rateLimitKey("2001:db8::1")).toBe(rateLimitKey("2001:db8::ffff:1"));
    expect(rateLimitKey("2001:db8:0:1::1")).not.toBe(rateLimitKey("2001:db8:0:2::1"));
  });
});
