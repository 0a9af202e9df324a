/**
 * The `splitter` probe (split fee mode only): the treasury is the FeeSplit contract, so it must hold code,
 * its immutable `bps()` must equal `fee.bps` (otherwise the quoted fee and the split paid out differ), and
 * its `payee()` and `feeRecipient()` must be readable (a contract without them is not a splitter).
 */
import { feeSplitterAbi } from "@svc/scheme";

import type { FacilitatorConfig, FeeConfig } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import { readCode } from "./probeContracts.js";
import type { CheckChain } from "./probeRpc.js";

/** Probes the splitter at `settlement.treasury` against the `[fee]` table in split mode. */
export async function probeSplitter(
  config: FacilitatorConfig,
  fee: Extract<FeeConfig, { mode: "split" }>,
  chain: CheckChain,
  timeoutMs: number,
): Promise<CheckFinding[]> {
  const list = new FindingList("splitter");
  const address = config.settlement.treasury;
  const code = await readCode(chain, address, timeoutMs);
  if (code.error !== undefined) {
    list.fail(`cannot read the code at settlement.treasury ${address}: ${code.error}`);
    return list.findings;
  }
  if (!code.hasCode) {
    list.fail(`settlement.treasury ${address} (the fee splitter) has no deployed code on chain ${config.network.chain_id}`);
    list.skip("bps(), payee() and feeRecipient() not read: there is no contract to read them from");
    return list.findings;
  }
  const read = async <Name extends "bps" | "payee" | "feeRecipient">(functionName: Name) => {
    try {
      const value = await chain.client.readContract({ address, abi: feeSplitterAbi, functionName });
      return { value, error: undefined };
    } catch (error) {
      return { value: undefined, error: describeFailure(error, timeoutMs) };
    }
  };
  const [bps, payee, feeRecipient] = await Promise.all([read("bps"), read("payee"), read("feeRecipient")]);
  if (bps.value === undefined) list.fail(`fee splitter ${address}: bps() cannot be read (${bps.error ?? "no value"})`);
  else if (Number(bps.value) !== fee.bps) {
    list.fail(`fee splitter ${address} splits ${bps.value} bps on-chain but fee.bps is ${fee.bps}`);
  }
  if (payee.value === undefined) list.fail(`fee splitter ${address}: payee() cannot be read (${payee.error ?? "no value"})`);
  if (feeRecipient.value === undefined) {
    list.fail(`fee splitter ${address}: feeRecipient() cannot be read (${feeRecipient.error ?? "no value"})`);
  }
  if (list.findings.length === 0) {
    list.ok(`fee splitter ${address}: bps() ${bps.value} = fee.bps, payee ${payee.value}, fee recipient ${feeRecipient.value}`);
  }
  return list.findings;
}
