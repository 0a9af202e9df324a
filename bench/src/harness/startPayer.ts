/** Starts the payer process (`servers/payerProcess.js`) with an IPC channel and wraps its commands. */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import { BenchError } from "./benchError.js";
import type { PaidResult, PayerReply, PayerRequest, PayerScheme, PayerSetup } from "../servers/payerProtocol.js";

/** A prepared (signed, unsent) paid request. */
export type PreparedPayment = {
  url: string;
  headers: Record<string, string>;
  paymentPayload: PaymentPayload;
  requirements: PaymentRequirements;
};

/** The running payer. */
export type Payer = {
  /** The payer process id, for CPU readings. */
  pid: number;
  /** One paid request with `@x402/fetch` (402, sign or burn, paid retry), timed inside the payer. */
  pay: (scheme: PayerScheme, privateKey: Hex, url: string) => Promise<PaidResult>;
  /** Gets the 402 and creates the payment for it without sending the paid request. */
  prepare: (scheme: PayerScheme, privateKey: Hex, url: string) => Promise<PreparedPayment>;
  /** Sends prepared paid requests all at once. */
  sendPrepared: (items: readonly PreparedPayment[]) => Promise<{ wallMs: number; results: PaidResult[] }>;
  stop: () => Promise<void>;
};

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The built payer program next to this file's folder. */
const PAYER_PROGRAM = fileURLToPath(new URL("../servers/payerProcess.js", import.meta.url));

/** Forks the payer, waits for it, and sends it `setup`. */
export async function startPayer(setup: PayerSetup): Promise<Payer> {
  const child: ChildProcess = fork(PAYER_PROGRAM, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: [] });
  const pending = new Map<number, (reply: PayerReply) => void>();
  let nextId = 1;
  const ready = new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new BenchError(`the payer process exited with ${code} before it was ready`)));
    child.on("message", (reply: PayerReply) => {
      if (reply.type === "ready") resolve();
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
    });
  });
  await ready;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const call = (request: DistributiveOmit<PayerRequest, "id">): Promise<PayerReply> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => (reply.type === "error" ? reject(new BenchError(`payer: ${reply.message}`)) : resolve(reply)));
      child.send({ ...request, id });
    });

  await call({ type: "setup", setup });
  if (child.pid === undefined) throw new BenchError("the payer process has no pid");
  return {
    pid: child.pid,
    pay: async (scheme, privateKey, url) => {
      const reply = await call({ type: "pay", scheme, privateKey, url });
      if (reply.type !== "paid") throw new BenchError(`payer: unexpected reply ${reply.type}`);
      return reply.result;
    },
    prepare: async (scheme, privateKey, url) => {
      const reply = await call({ type: "prepare", scheme, privateKey, url });
      if (reply.type !== "prepared") throw new BenchError(`payer: unexpected reply ${reply.type}`);
      return { url, headers: reply.headers, paymentPayload: reply.paymentPayload, requirements: reply.requirements };
    },
    sendPrepared: async (items) => {
      const reply = await call({ type: "sendPrepared", items: items.map(({ url, headers }) => ({ url, headers })) });
      if (reply.type !== "sent") throw new BenchError(`payer: unexpected reply ${reply.type}`);
      return { wallMs: reply.wallMs, results: reply.results };
    },
    stop: async () => {
      child.disconnect();
      await exited;
    },
  };
}
