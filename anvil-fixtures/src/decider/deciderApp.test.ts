/**
 * The fixture decider's jobs API: a folded proof signed by the fixture key under `ivc_<circuit>` becomes the
 * on-chain proof in the published encoding, signed for `<circuit>`; anything else fails the job, as a real
 * decider fails a proof it cannot verify.
 */
import {
  decodeDeciderWithdrawProof,
  decodeRootProof,
  DECIDER_WITHDRAW_SNARK_OFFSET,
  recoverFixtureSigner,
  ROOT_PROOF_SNARK_OFFSET,
  signFixtureIvcProof,
  signFixtureWords,
  type FixtureCircuit,
} from "@svc/scheme";
import { encodeAbiParameters, hexToBytes, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_PROVER_ADDRESS, FIXTURE_PROVER_PRIVATE_KEY } from "../accounts/devAccounts.js";
import { listen, type Listening } from "../http/listen.js";
import { getJson, postJson } from "../http/testing/fetchJson.js";
import { waitFor } from "../world/waitFor.js";
import { createDeciderApp } from "./deciderApp.js";

const CHAIN_ID = 31337n;
const withdrawal = { steps: 3n, root: 11n, recipientHash: 22n, lastLeafPosition: 9n, totalValue: 1000n };

let decider: Listening;

beforeAll(async () => {
  decider = await listen(
    createDeciderApp({ chainId: Number(CHAIN_ID), fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY, fixtureProverAddress: FIXTURE_PROVER_ADDRESS }),
  );
});

afterAll(async () => {
  await decider?.close();
});

const base64 = (bytes: Hex): string => Buffer.from(hexToBytes(bytes)).toString("base64");
const fromBase64 = (text: string): Hex => `0x${Buffer.from(text, "base64").toString("hex")}`;

/** The folded-proof blob for a withdrawal, signed by `privateKey` (the fixture key unless a test picks another). */
async function withdrawIvc(circuit: "ivc_withdraw_local" | "ivc_withdraw_global", privateKey: Hex = FIXTURE_PROVER_PRIVATE_KEY): Promise<string> {
  return base64(await signFixtureIvcProof({ privateKey, chainId: CHAIN_ID, circuit, proof: withdrawal }));
}

/** A folded root proof in the same blob layout (`uint256[]` public words, `uint256[3]` signature). */
async function rootIvc(publicWords: readonly bigint[], circuit: FixtureCircuit = "ivc_root"): Promise<string> {
  const signature = await signFixtureWords({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, circuit, chainId: CHAIN_ID, publicWords });
  return base64(encodeAbiParameters([{ type: "uint256[]" }, { type: "uint256[3]" }], [publicWords, signature]));
}

type Job = { job_id: string; circuit: string; status: string; result?: string; error?: string };

async function finishedJob(id: string): Promise<Job> {
  return waitFor(
    async () => {
      const job = (await getJson(`${decider.url}/jobs/${id}`)).body as Job;
      return job.status === "completed" || job.status === "failed" ? job : undefined;
    },
    { what: `decider job ${id} finished`, timeoutMs: 5_000, intervalMs: 10 },
  );
}

describe("fixture decider", () => {
  it.each(["withdraw_local", "withdraw_global"] as const)(
    "turns a fixture %s IVC proof into the uint256[34] decider proof over the same states",
    async (circuit) => {
      const jobId = `job-${circuit}`;
      const created = await postJson(`${decider.url}/jobs`, { job_id: jobId, circuit, ivc_proof: await withdrawIvc(`ivc_${circuit}`) });
      expect(created).toMatchObject({ status: 202, body: { job_id: jobId, status: "queued" } });
      const job = await finishedJob(jobId);
      expect(job).toMatchObject({ job_id: jobId, circuit, status: "completed" });
      const proof = decodeDeciderWithdrawProof(fromBase64(job.result ?? ""));
      expect({ ...proof, snark: undefined }).toEqual({ ...withdrawal, snark: undefined });
      const [r = 0n, s = 0n, v = 0n] = proof.snark;
      const publicWords = [
        withdrawal.steps,
        withdrawal.root,
        withdrawal.recipientHash,
        0n,
        0n,
        withdrawal.root,
        withdrawal.recipientHash,
        withdrawal.lastLeafPosition,
        withdrawal.totalValue,
      ];
      expect(await recoverFixtureSigner(circuit, CHAIN_ID, publicWords, [r, s, v])).toBe(FIXTURE_PROVER_ADDRESS);
      expect(proof.snark.length).toBe(34 - DECIDER_WITHDRAW_SNARK_OFFSET);
    },
  );

  it("turns a fixture root IVC proof into the uint256[32] root proof", async () => {
    const words = [2n, 0n, 0n, 5n, 2n, 6n, 7n];
    await postJson(`${decider.url}/jobs`, { job_id: "job-root", circuit: "root", ivc_proof: await rootIvc(words) });
    const job = await finishedJob("job-root");
    expect(job.status).toBe("completed");
    const proof = decodeRootProof(fromBase64(job.result ?? ""));
    expect(proof).toMatchObject({ steps: 2n, old: { index: 0n, hashChain: 0n, root: 5n }, new: { index: 2n, hashChain: 6n, root: 7n } });
    expect(proof.snark.length).toBe(32 - ROOT_PROOF_SNARK_OFFSET);
  });

  it("answers 200 for a job id it already has, without replacing the job", async () => {
    await postJson(`${decider.url}/jobs`, { job_id: "job-twice", circuit: "withdraw_local", ivc_proof: await withdrawIvc("ivc_withdraw_local") });
    const again = await postJson(`${decider.url}/jobs`, { job_id: "job-twice", circuit: "withdraw_local", ivc_proof: "AA==" });
    expect(again).toMatchObject({ status: 200, body: { job_id: "job-twice", message: "job already exists" } });
    expect((await finishedJob("job-twice")).status).toBe("completed");
  });

  it.each<[string, () => Promise<{ circuit: string; ivc_proof: string }>, string]>([
    [
      "signed by another key",
      async () => ({ circuit: "withdraw_local", ivc_proof: await withdrawIvc("ivc_withdraw_local", generatePrivateKey()) }),
      "not signed by the fixture key",
    ],
    [
      "folded for the other path",
      async () => ({ circuit: "withdraw_local", ivc_proof: await withdrawIvc("ivc_withdraw_global") }),
      "not signed by the fixture key",
    ],
    [
      "with a root's word count",
      async () => ({ circuit: "withdraw_local", ivc_proof: await rootIvc([1n, 2n, 3n, 4n, 5n, 6n, 7n], "ivc_withdraw_local") }),
      "7 public words",
    ],
    ["that is no blob at all", async () => ({ circuit: "root", ivc_proof: "AAEC" }), "malformed root IVC proof"],
  ])("fails a job whose IVC proof is %s", async (label, build, reason) => {
    const jobId = `job-bad-${label}`;
    expect((await postJson(`${decider.url}/jobs`, { job_id: jobId, ...(await build()) })).status).toBe(202);
    expect(await finishedJob(jobId)).toMatchObject({ status: "failed", error: expect.stringContaining(reason) });
  });

  it("refuses a malformed request with 400, an unknown job with 404, and answers /healthz", async () => {
    expect((await postJson(`${decider.url}/jobs`, { job_id: "x", circuit: "withdraw_single", ivc_proof: "AA==" })).status).toBe(400);
    expect((await postJson(`${decider.url}/jobs`, { job_id: "x", circuit: "root", ivc_proof: "not base64!" })).status).toBe(400);
    expect((await getJson(`${decider.url}/jobs/nope`)).status).toBe(404);
    expect(await getJson(`${decider.url}/healthz`)).toMatchObject({ status: 200, body: { status: "ok" } });
  });
});
