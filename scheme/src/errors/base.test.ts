import { describe, expect, it } from "vitest";

import { BaseError } from "./base.js";
import { InvalidSignatureError, PermitUnavailableError } from "../eip712/errors.js";
import { InvalidHeaderError } from "../headers/errors.js";
import { InvalidNetworkError, MalformedPayloadError } from "../wire/errors.js";

describe("BaseError", () => {
  it("formats the short message, meta messages and details", () => {
    const error = new BaseError("Something failed.", { metaMessages: ["first", "second"], details: "why" });
    expect(error.message).toMatchInlineSnapshot(`
      "Something failed.

      first
      second

      Details: why"
    `);
    expect(error.shortMessage).toBe("Something failed.");
    expect(error.details).toBe("why");
    expect(error.name).toBe("BaseError");
  });

  it("keeps the cause but never copies its message, which may quote signature bytes", () => {
    const cause = new Error(`bad signature 0x${"ab".repeat(65)}`);
    const error = new BaseError("Wrapped.", { cause });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("Wrapped.");
    expect(error.details).toBe("");
  });

  it("walks to the deepest cause, or to the first match", () => {
    const root = new Error("root");
    const middle = new InvalidSignatureError({ cause: root });
    const top = new BaseError("top", { cause: middle });
    expect(top.walk()).toBe(root);
    expect(top.walk((error) => error instanceof InvalidSignatureError)).toBe(middle);
    expect(top.walk((error) => error instanceof InvalidHeaderError)).toBeNull();
  });

  it("stops walking a cause cycle", () => {
    const a = new BaseError("a");
    const b = new BaseError("b", { cause: a });
    Object.defineProperty(a, "cause", { value: b });
    expect(a.walk((error) => error === "never")).toBeNull();
  });
});

describe("domain errors", () => {
  it.each([
    ["InvalidHeaderError", new InvalidHeaderError({ header: "PAYMENT-SIGNATURE", details: "x" })],
    ["InvalidNetworkError", new InvalidNetworkError({ network: "x" })],
    ["MalformedPayloadError", new MalformedPayloadError({ detail: "x" })],
    ["PermitUnavailableError", new PermitUnavailableError({ missing: ["helper"] })],
    ["InvalidSignatureError", new InvalidSignatureError()],
  ])("%s has its explicit name and extends BaseError", (name, error) => {
    expect(error).toBeInstanceOf(BaseError);
    expect(error.name).toBe(name);
  });
});
