/**
 * Test builders for the prover adapters: withdraw proof inputs with overrides, and the path of the test
 * prover program. The adapters only carry the statement to a prover and check the answer's public inputs,
 * so the inputs need not be a true statement; the secret is a fixed, recognizable value that tests search
 * for in every error.
 */
import { fileURLToPath } from "node:url";
import { addressToRecipient, generalRecipientHash } from "@svc/scheme";
import { getAddress } from "viem";
import type { WithdrawProofInputs } from "../../proverPort.js";

/** The burn secret of {@link buildWithdrawProofInputs}: it must never appear in an error or a log line. */
export const TEST_BURN_SECRET = 0x2bd5_62a0_4b1f_9c3e_77d1_0ae5_c4f8_3a69_15be_0d72_e8c4_1f6a_93b7_50dc_28e1_4f0bn;

/** The test prover program (`fixtureProverProgram.mjs`), for `prover.command`. */
export const FIXTURE_PROVER_PROGRAM = fileURLToPath(new URL("./fixtureProverProgram.mjs", import.meta.url));

/** The real test prover program (`snarkjsProverProgram.mjs`: snarkjs and a circuit's files), for `prover.command`. */
export const SNARKJS_PROVER_PROGRAM = fileURLToPath(new URL("./snarkjsProverProgram.mjs", import.meta.url));

const recipient = {
  chainId: 31337n,
  recipient: addressToRecipient(getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")),
  tweak: `0x${"07".repeat(32)}`,
} as const;

/** Inputs of a single-transfer withdrawal on chain 31337, with `overrides` applied. */
export function buildWithdrawProofInputs(overrides: Partial<WithdrawProofInputs> = {}): WithdrawProofInputs {
  return {
    protocol: "zerc20-v2",
    root: 0x1d2a_6b4c_9e0f_3a58n,
    rootIndex: 7n,
    recipient,
    recipientHash: generalRecipientHash(recipient),
    burnAddress: getAddress("0x3034a16d0e8b774fc609a8adcbe89ed3c5bad8c3"),
    secret: TEST_BURN_SECRET,
    transfers: [
      {
        leafIndex: 12n,
        from: getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"),
        value: 500n,
        siblings: Array.from({ length: 40 }, (_, level) => BigInt(level + 1)),
      },
    ],
    value: 500n,
    ...overrides,
  };
}

/** {@link buildWithdrawProofInputs} with three transfers, for the batch circuit. */
export function buildBatchWithdrawProofInputs(overrides: Partial<WithdrawProofInputs> = {}): WithdrawProofInputs {
  const single = buildWithdrawProofInputs();
  const [first] = single.transfers;
  if (first === undefined) return single;
  return buildWithdrawProofInputs({
    transfers: [first, { ...first, leafIndex: 13n, value: 200n }, { ...first, leafIndex: 20n, value: 300n }],
    value: 1000n,
    ...overrides,
  });
}

/** Every way `secret` could be written in a text: decimal, and hex in either case with or without 0x. */
export function secretSpellings(secret: bigint = TEST_BURN_SECRET): readonly string[] {
  const hex = secret.toString(16);
  return [secret.toString(10), hex, hex.toUpperCase(), hex.padStart(64, "0")];
}
