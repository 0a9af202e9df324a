/**
 * `facilitator withdrawal-witness` against the admin route of a real HTTP server: the witness printed to
 * standard output only, the token required, an unknown payment and a malformed nonce refused, and no error
 * that quotes the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "./clipanion.js";
import { buildConfigTable, writeConfigFile } from "../config/testing/buildConfig.js";
import { startTestServer, TEST_HTTP_ADMIN_TOKEN, TEST_WITHDRAWAL_WITNESS, type TestServer } from "../http/testing/buildAppDependencies.js";
import { runWithdrawalWitness } from "./withdrawalWitness.js";

let server: TestServer;
let configPath: string;

beforeAll(async () => {
  server = await startTestServer();
  configPath = await writeConfigFile(buildConfigTable());
});

afterAll(async () => {
  await server?.close();
});

async function run(challengeNonce: string, token: string | undefined) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWithdrawalWitness({
    configPath,
    env: token === undefined ? {} : { SVC_ADMIN_TOKEN: token },
    challengeNonce,
    url: server.url,
    write: (text) => out.push(text),
    writeError: (text) => err.push(text),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("withdrawal-witness", () => {
  it("prints the payment's witness as JSON on standard output and nothing on standard error", async () => {
    const result = await run(TEST_WITHDRAWAL_WITNESS.challenge_nonce, TEST_HTTP_ADMIN_TOKEN);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(TEST_WITHDRAWAL_WITNESS);
  });

  it("needs the admin token, and says so without printing a witness", async () => {
    for (const token of [undefined, "wrong-token"]) {
      const result = await run(TEST_WITHDRAWAL_WITNESS.challenge_nonce, token);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("SVC_ADMIN_TOKEN");
      expect(result.stderr).not.toContain(TEST_WITHDRAWAL_WITNESS.secret.slice(2));
    }
    const direct = await fetch(`${server.url}/admin/withdrawal-witness/${TEST_WITHDRAWAL_WITNESS.challenge_nonce}`);
    expect(direct.status).toBe(401);
    expect(await direct.text()).not.toContain(TEST_WITHDRAWAL_WITNESS.secret.slice(2));
  });

  it("names an unknown payment", async () => {
    const unknown = `0x${"0f".repeat(32)}`;
    const result = await run(unknown, TEST_HTTP_ADMIN_TOKEN);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain(`no payment with challenge nonce ${unknown}`);
  });

  it("refuses a malformed nonce as a usage mistake, and the route answers 400", async () => {
    await expect(run("0x1234", TEST_HTTP_ADMIN_TOKEN)).rejects.toBeInstanceOf(UsageError);
    const response = await fetch(`${server.url}/admin/withdrawal-witness/0x1234`, { headers: { authorization: `Bearer ${TEST_HTTP_ADMIN_TOKEN}` } });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
