/**
 * Verifier test actions over a {@link LocalChain}: reserve and prove roots the way the indexer's root job does,
 * and submit teleports the way the facilitator does, through the published ABI of the chain's version.
 */
import { zerc20VerifierAbi } from "@svc/scheme";
import { keccak256, toHex, type Hash, type Hex } from "viem";
import type { DevAccountName } from "../../accounts/devAccounts.js";
import { signRootProof, signSingleProof } from "./fixtureProofs.js";
import type { TestGeneralRecipient } from "./generalRecipient.js";
import { expectedRecipientHash } from "./expectedRecipientHash.js";
import type { LocalChain } from "./useLocalChain.js";

/** A stand-in transfer root (any non-zero field element; the fixture proof vouches for it). */
export const TEST_ROOT = BigInt(keccak256(toHex("transfer root 1"))) >> 8n;

/** The verifier of `chain` with the interface both versions share. */
export function verifierContract(chain: LocalChain) {
  return { address: chain.deployment.verifier, abi: zerc20VerifierAbi } as const;
}

/** Reserves the token's current hash chain (sent by `relayer`: anyone may) and returns what the verifier stored. */
export async function reserve(chain: LocalChain, signer: DevAccountName = "relayer"): Promise<{ index: bigint; hashChain: bigint }> {
  const { publicClient, wallet, mined } = chain;
  const verifier = verifierContract(chain);
  const receipt = await mined(wallet(signer).writeContract({ ...verifier, functionName: "reserveHashChain" }));
  const index = await publicClient.readContract({ ...verifier, functionName: "latestReservedIndex", blockNumber: receipt.blockNumber });
  const hashChain = await publicClient.readContract({ ...verifier, functionName: "reservedHashChains", args: [index] });
  return { index, hashChain };
}

/** Sends `proveTransferRoot(proof)` from `signer` (default the allow-listed `rootProver`). */
export function proveTransferRoot(chain: LocalChain, proof: Hex, signer: DevAccountName = "rootProver"): Promise<Hash> {
  return chain.wallet(signer).writeContract({ ...verifierContract(chain), functionName: "proveTransferRoot", args: [proof] });
}

/** Reserves and proves `root` over the deployed state (index 0, empty root); returns the new index (the root hint). */
export async function proveFirstRoot(chain: LocalChain, root = TEST_ROOT): Promise<bigint> {
  const reserved = await reserve(chain);
  const proof = await signRootProof({
    old: { index: 0n, hashChain: 0n, root: chain.deployment.emptyRoot },
    new: { index: reserved.index, hashChain: reserved.hashChain, root },
  });
  await chain.mined(proveTransferRoot(chain, proof));
  return reserved.index;
}

/** Which teleport entry point: the Groth16 single path or the decider batch path. */
export type TeleportKind = "singleTeleport" | "teleport";

/** Sends a teleport from `relayer`, as the facilitator does. */
export function submitTeleport(
  chain: LocalChain,
  kind: TeleportKind,
  isGlobal: boolean,
  rootHint: bigint,
  gr: TestGeneralRecipient,
  proof: Hex,
): Promise<Hash> {
  return chain.wallet("relayer").writeContract({ ...verifierContract(chain), functionName: kind, args: [isGlobal, rootHint, gr, proof] });
}

/** A valid single teleport of the proved total `value` to `gr` against `root` (default {@link TEST_ROOT}) at `rootHint`. */
export async function singleTeleport(chain: LocalChain, rootHint: bigint, gr: TestGeneralRecipient, value: bigint, root = TEST_ROOT): Promise<Hash> {
  const proof = await signSingleProof({ transferRoot: root, recipientHash: expectedRecipientHash(gr), value });
  return submitTeleport(chain, "singleTeleport", false, rootHint, gr, proof);
}
