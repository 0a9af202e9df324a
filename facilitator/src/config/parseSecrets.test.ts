import { inspect } from "node:util";
import { describe, expect, it } from "vitest";

import { InvalidSecretError, MissingSecretError } from "./errors.js";
import { parseSecrets } from "./parseSecrets.js";
import { buildEnv, TEST_ADMIN_TOKEN, TEST_RELAYER_PK, TEST_TREASURY_PK } from "./testing/buildConfig.js";

function errorOf(env: Record<string, string | undefined>): unknown {
  try {
    parseSecrets(env);
  } catch (error) {
    return error;
  }
  throw new Error("expected parseSecrets to throw");
}

describe("parseSecrets", () => {
  it("reads the three secrets", () => {
    expect({ ...parseSecrets(buildEnv()) }).toEqual({
      treasuryPk: TEST_TREASURY_PK,
      relayerPk: TEST_RELAYER_PK,
      adminToken: TEST_ADMIN_TOKEN,
    });
  });

  it("leaves the admin token undefined when unset or empty", () => {
    expect(parseSecrets(buildEnv({ SVC_ADMIN_TOKEN: undefined })).adminToken).toBeUndefined();
    expect(parseSecrets(buildEnv({ SVC_ADMIN_TOKEN: "" })).adminToken).toBeUndefined();
  });

  it.each(["SVC_TREASURY_PK", "SVC_RELAYER_PK"] as const)("requires %s", (variable) => {
    for (const value of [undefined, ""]) {
      const error = errorOf(buildEnv({ [variable]: value }));
      expect(error).toBeInstanceOf(MissingSecretError);
      expect(error).toMatchObject({ variable });
    }
  });

  const malformed = [
    ["without 0x", TEST_TREASURY_PK.slice(2)],
    ["too short", TEST_TREASURY_PK.slice(0, 64)],
    ["too long", `${TEST_TREASURY_PK}00`],
    ["with a trailing newline", `${TEST_TREASURY_PK}\n`],
    ["not hex", `0x${"zz".repeat(32)}`],
    ["zero", `0x${"00".repeat(32)}`],
    ["above the curve order", `0x${"ff".repeat(32)}`],
  ];

  it.each(malformed)("refuses SVC_RELAYER_PK %s, naming the variable and never the value", (_why, value) => {
    const error = errorOf(buildEnv({ SVC_RELAYER_PK: value }));
    expect(error).toBeInstanceOf(InvalidSecretError);
    expect(error).toMatchObject({ variable: "SVC_RELAYER_PK" });
    const text = `${String(error)} ${inspect(error)}`;
    expect(text).toContain("SVC_RELAYER_PK");
    expect(text).not.toContain(TEST_TREASURY_PK.slice(2, 18));
  });

  it("reads an optional SVC_MINTER_PK, unset or empty meaning the relayer key mints", () => {
    const minterPk = `0x${"3c".repeat(32)}`;
    expect(parseSecrets(buildEnv({ SVC_MINTER_PK: minterPk })).minterPk).toBe(minterPk);
    expect(parseSecrets(buildEnv()).minterPk).toBeUndefined();
    expect(parseSecrets(buildEnv({ SVC_MINTER_PK: "" })).minterPk).toBeUndefined();
  });

  it.each(malformed)("refuses SVC_MINTER_PK %s, naming the variable and never the value", (_why, value) => {
    const error = errorOf(buildEnv({ SVC_MINTER_PK: value }));
    expect(error).toBeInstanceOf(InvalidSecretError);
    expect(error).toMatchObject({ variable: "SVC_MINTER_PK" });
    const text = `${String(error)} ${inspect(error)}`;
    expect(text).toContain("SVC_MINTER_PK");
    expect(text).not.toContain(TEST_TREASURY_PK.slice(2, 18));
  });

  it("pins the message of a malformed key", () => {
    expect(() => parseSecrets(buildEnv({ SVC_TREASURY_PK: "0x1234" }))).toThrowErrorMatchingInlineSnapshot(
      `[InvalidSecretError: SVC_TREASURY_PK is invalid: expected 0x followed by 64 hex digits (a 32-byte private key).]`,
    );
  });

  it.each([
    ["shorter than 16 characters", "short-token-123"],
    ["containing a space", "a token with spaces in it"],
    ["containing a newline", "0123456789abcdef\n"],
  ])("refuses an admin token %s, without quoting it", (_why, token) => {
    const error = errorOf(buildEnv({ SVC_ADMIN_TOKEN: token }));
    expect(error).toBeInstanceOf(InvalidSecretError);
    expect(error).toMatchObject({ variable: "SVC_ADMIN_TOKEN" });
    expect(String(error)).not.toContain(token.trim());
  });

  it("accepts a 16-character admin token", () => {
    expect(parseSecrets(buildEnv({ SVC_ADMIN_TOKEN: "0123456789abcdef" })).adminToken).toBe("0123456789abcdef");
  });

  it("hides its values from JSON and util.inspect", () => {
    const minterPk = `0x${"3c".repeat(32)}`;
    const secrets = parseSecrets(buildEnv({ SVC_MINTER_PK: minterPk }));
    const printed = `${JSON.stringify(secrets)} ${JSON.stringify({ secrets })} ${inspect(secrets)} ${inspect({ secrets })}`;
    expect(printed).not.toContain(TEST_TREASURY_PK.slice(2));
    expect(printed).not.toContain(TEST_RELAYER_PK.slice(2));
    expect(printed).not.toContain(TEST_ADMIN_TOKEN);
    expect(printed).not.toContain(minterPk.slice(2));
  });
});
