/**
 * The three parties as real processes for the agent's end-to-end tests, from the test kit's `startWorld`:
 * the local stack, the built facilitator daemon and the built demo provider. The agent under test then runs
 * as `node agent/dist/cli.js`. Tests never build; `make test` builds first.
 */
import { startWorld, type StartWorldOptions, type World } from "@svc/anvil-fixtures";

/** Options of `startPaymentWorld`. */
export type PaymentWorldOptions = Pick<StartWorldOptions, "price" | "facilitatorEnv">;

/** The running parties and what tests need to talk to them. */
export type PaymentWorld = World;

/** Starts stack, facilitator and provider in a fresh `svc-agent-world-` folder. */
export function startPaymentWorld(options: PaymentWorldOptions = {}): Promise<PaymentWorld> {
  return startWorld({ ...options, dirPrefix: "svc-agent-world-" });
}
