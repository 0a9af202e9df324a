/**
 * The fixture decider-prover, shaped like the zERC20 decider jobs API. A job takes a folded (IVC) fixture
 * proof signed under `ivc_<circuit>` and, once it checks out, returns the on-chain proof for `<circuit>`:
 * only the decider turns folded work into something the verifier accepts, as on the real batch path.
 */
import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import Koa from "koa";
import { bytesToHex, hexToBytes, isAddressEqual, type Address, type Hex } from "viem";
import { z } from "zod";
import { decodeFixtureProof, recoverFixtureProofSigner, signFixtureProof, type FixtureCircuit } from "@svc/scheme";

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
  /** Simulated proving time per job (default 20 ms). */
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

/** Builds the jobs API; jobs live in memory for the life of the process. */
export function createDeciderApp(options: DeciderOptions): Koa {
  const jobs = new Map<string, DeciderJob>();
  const delay = options.provingDelayMs ?? 20;

  const prove = async (job: DeciderJob, ivcProof: Hex): Promise<void> => {
    job.status = "processing";
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      const chainId = BigInt(options.chainId);
      const signer = await recoverFixtureProofSigner(ivcCircuit[job.circuit], chainId, ivcProof);
      if (!isAddressEqual(signer, options.fixtureProverAddress)) {
        job.status = "failed";
        job.error = `the ${job.circuit} IVC proof is not signed by the fixture key`;
        return;
      }
      const { publicInputs } = decodeFixtureProof(ivcProof);
      const proof = await signFixtureProof({
        privateKey: options.fixtureProverKey,
        circuit: job.circuit,
        chainId,
        publicInputs,
      });
      job.result = Buffer.from(hexToBytes(proof)).toString("base64");
      job.status = "completed";
    } catch (error) {
      job.status = "failed";
      job.error = `malformed ${job.circuit} IVC proof: ${error instanceof Error ? error.message : "undecodable"}`;
    }
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
    void prove(job, bytesToHex(Buffer.from(ivc_proof, "base64")));
    ctx.status = 202;
    ctx.body = { job_id, status: job.status, message: "job accepted" };
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
