/** Everything a measurement may use: the running stack and programs, the payer, and the run counts. */
import type { RunningStack } from "@svc/anvil-fixtures";
import type { Hex } from "viem";
import type { BenchAccount } from "./benchAccounts.js";
import type { BenchConfig } from "./benchConfig.js";
import type { ExactSide } from "./startExactSide.js";
import type { OurFacilitator } from "./startOurFacilitator.js";
import type { Payer } from "./startPayer.js";

/** The shared state of one bench run. */
export type BenchContext = {
  /** Scratch folder of this run (configurations, journals, agent state). */
  dir: string;
  stack: RunningStack;
  /** The anvil process. */
  anvilPid: number;
  /** Our facilitator and provider for sections 1, 2, 3 and 5. */
  ours: OurFacilitator;
  /** The official exact facilitator and provider. */
  exact: ExactSide;
  payer: Payer;
  /** The stack's funded `payer` key: pays the sequential requests of both schemes. */
  payerKey: Hex;
  /** Extra funded payers (concurrency and finalize measurements). */
  accounts: readonly BenchAccount[];
  config: BenchConfig;
  /** Progress line on stderr. */
  progress: (message: string) => void;
};
