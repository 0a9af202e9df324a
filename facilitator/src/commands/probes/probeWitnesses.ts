/**
 * The `witnesses` probe: where the mints' Merkle paths come from (`finalize.witnesses`). Under `self` it reads
 * the follower's saved state (the `<journal>.witnesses` file; with `[storage]` the state is the database's and
 * only the chain side is reported) and sets it against the chain: the token's leaves, the verifier's proved
 * index, the follower's leaves behind it, and the last root it checked, compared with `provedTransferRoots`
 * again (a saved root the verifier does not have is a problem: the daemon would stop on it).
 */
import { zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { getAddress } from "viem";
import type { FacilitatorConfig } from "../../config/index.js";
import { witnessStateBinding } from "../../finalize/selfWitnesses.js";
import { witnessStateFile } from "../../storage/witnessStateFile.js";
import { decodeFollowerState } from "../../witnesses/followerStateCodec.js";
import { type CheckFinding, FindingList } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import type { CheckChain } from "./probeRpc.js";

// Below this many blocks of chain an unset deploy_block costs a first sync of a few pages at most.
const SHORT_CHAIN_BLOCKS = 100_000n;

/** Reports the witness source and, under `self`, the follower against the chain. */
export async function probeWitnesses(config: FacilitatorConfig, chain: CheckChain, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("witnesses");
  if (config.finalize.witnesses === "indexer") {
    list.ok('finalize.witnesses = "indexer": Merkle paths from the indexer\'s /proofs, mixed with decoys (the indexer sees the leaves asked for)');
    return list.findings;
  }
  const token = getAddress(config.network.token);
  const verifier = getAddress(config.network.verifier);
  try {
    const [leaves, proved, head] = await Promise.all([
      chain.client.readContract({ address: token, abi: zerc20TokenAbi, functionName: "index" }),
      chain.client.readContract({ address: verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" }),
      chain.client.getBlockNumber(),
    ]);
    const onChain = `the token has ${leaves} leaves, the verifier proved ${proved}`;
    if (config.network.deploy_block === undefined && head > SHORT_CHAIN_BLOCKS) {
      list.warn(`network.deploy_block is unset: the follower's first sync reads ${head} blocks of logs from block 0; set the token's deployment block`);
    }
    const journal = config.storage === undefined ? config.settlement.journal : null;
    if (journal === null) {
      const where = config.storage === undefined ? 'journal = "none" (kept in memory)' : "the [storage] database";
      list.ok(`finalize.witnesses = "self": ${onChain}; the follower's state is in ${where}`);
      return list.findings;
    }
    // A journal folder that cannot be read is the journal probe's problem; here it only hides the saved state.
    const text = await witnessStateFile(`${journal}.witnesses`)
      .load(witnessStateBinding(config.network.chain_id, token))
      .catch((error: unknown) => {
        list.warn(`cannot read the follower's saved state ${journal}.witnesses: ${describeFailure(error, timeoutMs)}`);
        return null;
      });
    if (text === null) return list.findings;
    const saved = text === undefined ? undefined : decodeFollowerState(text);
    if (saved === undefined) {
      const from = config.network.deploy_block ?? 0;
      list.ok(
        `finalize.witnesses = "self": ${onChain}; no saved follower${text === undefined ? "" : " it can read"}, the first pass follows from block ${from}`,
      );
      return list.findings;
    }
    const behind = proved > saved.tree.size ? proved - saved.tree.size : 0n;
    const checked = saved.lastChecked;
    const progress = `follower saved at ${saved.tree.size} leaves (${behind} behind), next block ${saved.nextBlock} of ${head}`;
    if (checked === undefined) {
      list.ok(`finalize.witnesses = "self": ${onChain}; ${progress}, no root checked yet`);
      return list.findings;
    }
    const root = await chain.client.readContract({ address: verifier, abi: zerc20VerifierAbi, functionName: "provedTransferRoots", args: [checked.index] });
    if (root === checked.root) list.ok(`finalize.witnesses = "self": ${onChain}; ${progress}, its root at ${checked.index} is the verifier's`);
    else
      list.fail(
        `finalize.witnesses = "self": the saved follower's root at ${checked.index} is not the verifier's: the daemon would stop minting (witness_root_mismatch)`,
      );
  } catch (error) {
    list.fail(`cannot read the transfer tree's progress: ${describeFailure(error, timeoutMs)}`);
  }
  return list.findings;
}
