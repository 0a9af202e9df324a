/**
 * The `contracts` probe: every configured contract address holds deployed code on the configured chain. An
 * address without code (a typo, an EOA, another network's deployment) would make every payment fail only
 * once a payer tries it.
 */
import type { Address } from "viem";

import type { FacilitatorConfig } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import type { CheckChain } from "./probeRpc.js";

/** Checks for deployed code at `network.token`, `network.verifier`, `network.hub` (when set) and `settlement.permit_burner`. */
export async function probeContracts(config: FacilitatorConfig, chain: CheckChain, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("contracts");
  const targets: [key: string, address: Address][] = [
    ["network.token", config.network.token],
    ["network.verifier", config.network.verifier],
  ];
  if (config.network.hub !== undefined) targets.push(["network.hub", config.network.hub]);
  if (config.settlement.permit_burner !== undefined) {
    targets.push(["settlement.permit_burner", config.settlement.permit_burner]);
  }
  const results = await Promise.all(targets.map(([, address]) => readCode(chain, address, timeoutMs)));
  targets.forEach(([key, address], index) => {
    const result = results[index];
    if (result === undefined || result.hasCode) list.ok(`${key} ${address} has deployed code`);
    else if (result.error !== undefined) list.fail(`cannot read the code at ${key} ${address}: ${result.error}`);
    else list.fail(`${key} ${address} has no deployed code on chain ${config.network.chain_id}`);
  });
  if (config.settlement.permit_burner === undefined) {
    list.skip("settlement.permit_burner is not set: the gasless permit path is not offered");
  }
  return list.findings;
}

/** Whether `address` holds code, or why that could not be read. */
export async function readCode(chain: CheckChain, address: Address, timeoutMs: number): Promise<{ hasCode: boolean; error?: string }> {
  try {
    const code = await chain.client.getCode({ address });
    return { hasCode: code !== undefined && code !== "0x" };
  } catch (error) {
    return { hasCode: false, error: describeFailure(error, timeoutMs) };
  }
}
