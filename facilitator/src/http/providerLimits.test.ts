/**
 * Provider identity and per-payer limits through the real HTTP layer and the scheme's own challenge client:
 * two providers, three payers. Money limits are per provider, the issuance limit per provider and payer, and
 * a payer address is believed only from an authenticated provider.
 */
import { createHash } from "node:crypto";
import { createChallengeClient, providerAuthorization } from "@svc/scheme";
import { afterEach, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "./testing/buildAppDependencies.js";

const ALPHA_KEY = "alpha-provider-key-0123456789abcdef";
const BETA_KEY = "beta-provider-key-0123456789abcdef";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const PAYERS = ["203.0.113.1", "203.0.113.2", "2001:db8:1:2::7"] as const;

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(providers: Record<string, { key_sha256: string; rate_limit_per_min?: number; challenge_per_payer_per_min?: number }> | undefined) {
  server = await startTestServer({ providers, daemon: { rate_limit_per_min: 100, challenge_per_key_per_min: 2 } });
  return server.url;
}

/** Asks for one offer through the plugin's client and answers the HTTP status it ended with. */
async function offer(url: string, providerKey: string | undefined, payerAddress: string | undefined): Promise<number> {
  const challenge = createChallengeClient({ facilitatorUrl: url, network: "eip155:31337", providerKey });
  try {
    await challenge("1000", { payerAddress });
    return 200;
  } catch (error) {
    const failure = (error as { failure?: { kind: string; status?: number } }).failure;
    if (failure?.kind !== "refused" || failure.status === undefined) throw error;
    return failure.status;
  }
}

const twoProviders = {
  alpha: { key_sha256: sha256(ALPHA_KEY), challenge_per_payer_per_min: 2, rate_limit_per_min: 9 },
  beta: { key_sha256: sha256(BETA_KEY).toUpperCase(), challenge_per_payer_per_min: 3 },
};

describe("two providers, three payers", () => {
  it("limits issuance per provider and payer with each provider's own budget", async () => {
    const url = await serve(twoProviders);
    // alpha: two offers per payer, for each of the three payers.
    for (const payer of PAYERS) {
      expect([await offer(url, ALPHA_KEY, payer), await offer(url, ALPHA_KEY, payer), await offer(url, ALPHA_KEY, payer)]).toEqual([200, 200, 429]);
    }
    // beta's payers are counted apart from alpha's, against beta's budget of three.
    const beta = [];
    for (let index = 0; index < 4; index += 1) beta.push(await offer(url, BETA_KEY, PAYERS[0]));
    expect(beta).toEqual([200, 200, 200, 429]);
  });

  it("spends the money budget per provider: alpha exhausted, beta unaffected", async () => {
    const url = await serve(twoProviders);
    const verify = (key: string) =>
      fetch(`${url}/verify`, { method: "POST", headers: { authorization: providerAuthorization(key), "content-type": "application/json" }, body: "{}" });
    // Nine offers and verifies from alpha across payers use its budget of nine.
    const statuses = [];
    for (let index = 0; index < 9; index += 1) statuses.push((await verify(ALPHA_KEY)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await verify(ALPHA_KEY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(await offer(url, ALPHA_KEY, PAYERS[2])).toBe(429);
    expect((await verify(BETA_KEY)).status).toBe(200);
    expect(await offer(url, BETA_KEY, PAYERS[2])).toBe(200);
  });

  it("refuses a missing or unknown key with 401 and a malformed payer address with 400", async () => {
    const url = await serve(twoProviders);
    expect(await offer(url, undefined, PAYERS[0])).toBe(401);
    expect(await offer(url, "not-a-provider-key-0123456789", PAYERS[0])).toBe(401);
    const settle = await fetch(`${url}/settle`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(settle.status).toBe(401);
    expect(await settle.json()).toEqual({ error: "provider authentication required: send Authorization: Bearer <provider key>" });
    expect(await offer(url, ALPHA_KEY, "203.0.113.1, 10.0.0.1")).toBe(400);
  });

  it("without providers keeps the per-IP limit and ignores forwarded payer addresses", async () => {
    const url = await serve(undefined);
    // Three "payers" from one IP share its bucket of two: the header cannot buy an anonymous caller new buckets.
    expect([await offer(url, undefined, PAYERS[0]), await offer(url, undefined, PAYERS[1]), await offer(url, ALPHA_KEY, PAYERS[2])]).toEqual([200, 200, 429]);
  });
});
