/**
 * The ground truth an observer's guesses are scored against: which burn each mint consumed, as the
 * facilitator's `GET /admin/settlements?state=finalized` lists it (burn and mint transaction per payment).
 */
import type { Hash } from "viem";
import type { GroundTruthPair } from "./scoreMints.js";

/** The page size asked for; the admin API's largest. */
const PAGE = 1000;

/** Every finalized settlement's burn and mint transaction, all pages. */
export async function readGroundTruth(facilitatorUrl: string, adminToken: string): Promise<GroundTruthPair[]> {
  const pairs: GroundTruthPair[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const response = await fetch(`${facilitatorUrl}/admin/settlements?state=finalized&limit=${PAGE}&offset=${offset}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (!response.ok) throw new TypeError(`GET /admin/settlements answered ${response.status}`);
    const page = (await response.json()) as { settlements: { burnTxHash: Hash; mintTxHash?: Hash }[]; total: number };
    for (const settlement of page.settlements) {
      if (settlement.mintTxHash !== undefined) pairs.push({ burnTxHash: settlement.burnTxHash, mintTxHash: settlement.mintTxHash });
    }
    if (offset + PAGE >= page.total) return pairs;
  }
}
