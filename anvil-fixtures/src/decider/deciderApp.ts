/**
 * The fixture decider-prover, shaped like the zERC20 decider jobs API (`POST /jobs`, `GET /jobs/:id`,
 * `GET /healthz`). A job takes the folded (IVC) proof as base64; the real one is an arkworks IVC proof, the
 * fixture one the blob `signFixtureIvcProof` makes: public words signed by the fixture key under
 * `ivc_<circuit>`. Once the signature checks out, the job completes with base64 of the on-chain proof in the
 * published encoding (`uint256[34]` for `withdraw_*`, `uint256[32]` for `root`), so only the decider turns
 * folded work into something the verifier accepts, as on the real batch path.
 */
import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import Koa from "koa";
import { bytesToHex, hexToBytes, isAddressEqual, type Address, type Hex } from "viem";
import { z } from "zod";
import { decodeFixtureIvcProof, type FixtureCircuit, recoverFixtureSigner, signFixtureDeciderWithdrawProof, signFixtureRootProof } from "@svc/scheme";

/** Circuits the jobs API accepts. */
export const DECIDER_CIRCUITS = ["root", "withdraw_local", "withdraw_global"] as const;
type DeciderCircuit = (typeof DECIDER_CIRCUITS)[number];

/** A job as `GET /jobs/:id` reports it. */
export type DeciderJob = {
  job_id: string;
  circuit: DeciderCircuit;
  status: "queued" | "processing" | "completed" | "failed";
  result?: string;
  error?: string;
};

/** How the fixture decider proves. */
export type DeciderOptions = {
  chainId: number;
  fixtureProverKey: Hex;
  fixtureProverAddress: Address;
  /** Simulated proving time per job (default 20 ms), so clients see `queued`/`processing` as on the real service. */
  provingDelayMs?: number;
};

const jobRequest = z.object({
  job_id: z.string().min(1).max(128),
  circuit: z.enum(DECIDER_CIRCUITS),
  ivc_proof: z.base64(),
});

const ivcCircuit: Record<DeciderCircuit, FixtureCircuit> = {
  root: "ivc_root",
  withdraw_local: "ivc_withdraw_local",
  withdraw_global: "ivc_withdraw_global",
};

/** Public words of a folded proof: withdrawals `[steps, root, R, last leaf position, total value]`, roots `[steps, old (index, hash chain, root), new (…)]`. */
const PUBLIC_WORD_COUNT: Record<DeciderCircuit, number> = { root: 7, withdraw_local: 5, withdraw_global: 5 };

/** The decider's verdict on one folded proof: the on-chain proof, or why there is none. */
type Decision = { proof: Hex } | { error: string };

/** Builds the jobs API; jobs live in memory for the life of the process. */
export function createDeciderApp(options: DeciderOptions): Koa {
  const jobs = new Map<string, DeciderJob>();
  const delay = options.provingDelayMs ?? 20;
  const chainId = BigInt(options.chainId);

  const decide = async (circuit: DeciderCircuit, ivcProof: Hex): Promise<Decision> => {
    let folded: ReturnType<typeof decodeFixtureIvcProof>;
    try {
      folded = decodeFixtureIvcProof(ivcProof);
    } catch {
      return { error: `malformed ${circuit} IVC proof: not a fixture IVC blob` };
    }
    const { publicWords, signature } = folded;
    if (publicWords.length !== PUBLIC_WORD_COUNT[circuit]) {
      return { error: `malformed ${circuit} IVC proof: ${publicWords.length} public words, expected ${PUBLIC_WORD_COUNT[circuit]}` };
    }
    const signer = await recoverFixtureSigner(ivcCircuit[circuit], chainId, publicWords, signature).catch(() => undefined);
    if (signer === undefined || !isAddressEqual(signer, options.fixtureProverAddress)) {
      return { error: `the ${circuit} IVC proof is not signed by the fixture key` };
    }
    const [w0 = 0n, w1 = 0n, w2 = 0n, w3 = 0n, w4 = 0n, w5 = 0n, w6 = 0n] = publicWords;
    const privateKey = options.fixtureProverKey;
    if (circuit === "root") {
      return {
        proof: await signFixtureRootProof({
          privateKey,
          chainId,
          steps: w0,
          old: { index: w1, hashChain: w2, root: w3 },
          new: { index: w4, hashChain: w5, root: w6 },
        }),
      };
    }
    return {
      proof: await signFixtureDeciderWithdrawProof({
        privateKey,
        chainId,
        circuit,
        proof: { steps: w0, root: w1, recipientHash: w2, lastLeafPosition: w3, totalValue: w4 },
      }),
    };
  };

  const prove = async (job: DeciderJob, ivcProof: Hex): Promise<void> => {
    job.status = "processing";
    await new Promise((resolve) => setTimeout(resolve, delay));
    const decision = await decide(job.circuit, ivcProof);
    if ("error" in decision) {
      job.status = "failed";
      job.error = decision.error;
      return;
    }
    job.result = Buffer.from(hexToBytes(decision.proof)).toString("base64");
    job.status = "completed";
  };

  const router = new Router();
  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });
  router.post("/jobs", (ctx) => {
    const parsed = jobRequest.safeParse(ctx.request.body);
    if (!parsed.success) {
      ctx.status = 400;
      ctx.body = { error: z.prettifyError(parsed.error) };
      return;
    }
    const { job_id, circuit, ivc_proof } = parsed.data;
    const existing = jobs.get(job_id);
    if (existing) {
      ctx.status = 200;
      ctx.body = { job_id, status: existing.status, message: "job already exists" };
      return;
    }
    const job: DeciderJob = { job_id, circuit, status: "queued" };
    jobs.set(job_id, job);
    ctx.status = 202;
    ctx.body = { job_id, status: job.status, message: "job accepted" };
    // Started after the answer is built, so the answer reports the job as queued, as the real service does.
    void prove(job, bytesToHex(Buffer.from(ivc_proof, "base64")));
  });
  router.get("/jobs/:id", (ctx) => {
    const job = jobs.get(ctx.params.id ?? "");
    if (!job) {
      ctx.status = 404;
      ctx.body = { error: "unknown job" };
      return;
    }
    ctx.body = job;
  });

  const app = new Koa();
  app.use(bodyParser({ enableTypes: ["json"], jsonLimit: "1mb" }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
