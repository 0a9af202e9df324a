/** Journal records for tests that fold a settlement book by hand: one offer per `n`, every field distinct per `n`. */
import type { Hex } from "viem";
import type { JournaledChallenge } from "../journal/journalRecord.js";

export const TEST_TOKEN = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

/** The `n`th challenge nonce. */
export const testNonce = (n: number): Hex => `0x${n.toString(16).padStart(64, "0")}`;

/** The journaled offer of challenge `n` on the local chain: 1010 units, 10 of them the fee, payTo derived from `n`. */
export function testJournaledChallenge(n: number): JournaledChallenge {
  return {
    challengeNonce: testNonce(n),
    protocol: "zerc20-v2",
    network: "eip155:31337",
    chainId: 31337,
    asset: TEST_TOKEN,
    payTo: `0x${n.toString(16).padStart(40, "0")}`,
    amount: "1010",
    fee: "10",
    payout: "1000",
    issuedAt: 1,
    expiresAt: 301,
  };
}
