/**
 * The `relayer` probe: the relayer pays the gas of every proof-gated mint and permit burn, so an account
 * without native balance lets payments reach `accepted` and then never finalize. Only a warning: the
 * daemon can start, and an operator may fund the account afterwards.
 */
import { formatEther } from "viem";
import { privateKeyToAddress } from "viem/accounts";

import type { FacilitatorSecrets } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import type { CheckChain } from "./probeRpc.js";

/** Reads the native balance of the address of `SVC_RELAYER_PK`. */
export async function probeRelayer(secrets: FacilitatorSecrets, chain: CheckChain, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("relayer");
  const address = privateKeyToAddress(secrets.relayerPk);
  try {
    const balance = await chain.client.getBalance({ address });
    if (balance === 0n) list.warn(`${address} (SVC_RELAYER_PK) holds no native balance to pay gas for mints and permit burns`);
    else list.ok(`${address} (SVC_RELAYER_PK) holds ${formatEther(balance)} native units for gas`);
  } catch (error) {
    list.fail(`cannot read the balance of ${address} (SVC_RELAYER_PK): ${describeFailure(error, timeoutMs)}`);
  }
  return list.findings;
}
