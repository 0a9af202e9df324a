import type { Zerc20Protocol } from "@svc/scheme";
import type { Address } from "viem";
import type { TransferLog } from "../transferLog.js";

/** What the routes read: the indexed deployment, its protocol version and its current log. */
export type IndexerState = {
  label: string;
  chainId: number;
  token: Address;
  verifier: Address;
  protocol: Zerc20Protocol;
  log: () => TransferLog;
};
