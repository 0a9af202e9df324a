import { describe, expect, it } from "vitest";

import { InvalidProviderConfigError } from "./errors.js";
import { loadProviderConfig } from "./loadProviderConfig.js";

describe("loadProviderConfig", () => {
  it("defaults to the local stack: facilitator on 4032, provider on 127.0.0.1:4021, 0.001 token, chain 31337", () => {
    expect(loadProviderConfig({})).toEqual({
      facilitatorUrl: "http://127.0.0.1:4032",
      host: "127.0.0.1",
      port: 4021,
      price: "1000000000000000",
      network: "eip155:31337",
    });
  });

  it("reads every variable, treating an empty one as unset", () => {
    const config = loadProviderConfig({
      FACILITATOR_URL: "https://facilitator.example/base/",
      HOST: "0.0.0.0",
      PORT: "0",
      PRICE: "42",
      NETWORK: "eip155:8453",
      UNRELATED: "x",
    });
    expect(config).toEqual({ facilitatorUrl: "https://facilitator.example/base", host: "0.0.0.0", port: 0, price: "42", network: "eip155:8453" });
    expect(loadProviderConfig({ PRICE: "" }).price).toBe("1000000000000000");
  });

  it.each([
    ["FACILITATOR_URL", "127.0.0.1:4032", "an http:// or https:// URL"],
    ["FACILITATOR_URL", "ftp://127.0.0.1:4032", "an http:// or https:// URL"],
    ["HOST", "local host", "a host name or IP address"],
    ["PORT", "70000", "an integer from 0 to 65535 (0 picks a free port)"],
    ["PORT", "-1", "an integer from 0 to 65535 (0 picks a free port)"],
    ["PORT", "80.5", "an integer from 0 to 65535 (0 picks a free port)"],
    ["PRICE", "0", "a positive amount in base units as a plain decimal integer, e.g. 1000000000000000"],
    ["PRICE", "1.5", "a positive amount in base units as a plain decimal integer, e.g. 1000000000000000"],
    ["PRICE", "1e18", "a positive amount in base units as a plain decimal integer, e.g. 1000000000000000"],
    ["PRICE", "01", "a positive amount in base units as a plain decimal integer, e.g. 1000000000000000"],
    ["NETWORK", "solana:mainnet", "a CAIP-2 network eip155:<chainId>"],
  ])("refuses %s=%j with a named error", (variable, value, expected) => {
    const load = () => loadProviderConfig({ [variable]: value });
    expect(load).toThrow(InvalidProviderConfigError);
    expect(load).toThrow(`Invalid ${variable}: expected ${expected}.`);
  });

  it("never quotes the value, since FACILITATOR_URL may carry credentials", () => {
    expect(() => loadProviderConfig({ FACILITATOR_URL: "ftp://user:secret@host" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("secret") }),
    );
  });
});
