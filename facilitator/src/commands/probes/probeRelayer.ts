/**
 * The `relayer` probe: the relayer pays the gas of every permit burn and, unless `SVC_MINTER_PK` names a key
 * of its own, of every proof-gated mint, so an account without native balance lets payments reach `accepted`
 * and then never finalize. Only a warning: the
 * daemon can start, and an operator may fund the account afterwards.
 */
import { formatEther } from "viem";
import { privateKeyToAddress } from "viem/accounts";

import type { FacilitatorSecrets } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import type { CheckChain } from "./probeRpc.js";

/** Reads the native balance of the address of `SVC_RELAYER_PK` and, when it is a key of its own, of `SVC_MINTER_PK`. */
export async function probeRelayer(secrets: FacilitatorSecrets, chain: CheckChain, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("relayer");
  const separateMinter = secrets.minterPk !== undefined && secrets.minterPk.toLowerCase() !== secrets.relayerPk.toLowerCase();
  const keys: { variable: string; address: `0x${string}`; pays: string }[] = [
    { variable: "SVC_RELAYER_PK", address: privateKeyToAddress(secrets.relayerPk), pays: separateMinter ? "permit burns" : "mints and permit burns" },
  ];
  if (separateMinter && secrets.minterPk !== undefined) {
    keys.push({ variable: "SVC_MINTER_PK", address: privateKeyToAddress(secrets.minterPk), pays: "mints and fee distributions" });
  }
  for (const { variable, address, pays } of keys) {
    try {
      const balance = await chain.client.getBalance({ address });
      if (balance === 0n) list.warn(`${address} (${variable}) holds no native balance to pay gas for ${pays}`);
      else list.ok(`${address} (${variable}) holds ${formatEther(balance)} native units for gas`);
    } catch (error) {
      list.fail(`cannot read the balance of ${address} (${variable}): ${describeFailure(error, timeoutMs)}`);
    }
  }
  return list.findings;
}
