/** The facilitator's admin surface, as the scenarios read it. */

/** One settlement as `GET /admin/settlements` lists it. */
export type AdminSettlement = { challengeNonce: string; state: string; burnTxHash: string; mintTxHash?: string; reason?: string };

/** Lists settlements, optionally in one state. */
export async function adminSettlements(facilitatorUrl: string, adminToken: string, state?: string): Promise<AdminSettlement[]> {
  const response = await fetch(`${facilitatorUrl}/admin/settlements${state ? `?state=${state}` : ""}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  return ((await response.json()) as { settlements: AdminSettlement[] }).settlements;
}

/** `facilitator_finalize_passes_total` from `/metrics`: how many finalize passes the daemon completed. */
export async function finalizePasses(facilitatorUrl: string, adminToken: string): Promise<number> {
  const response = await fetch(`${facilitatorUrl}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
  const sample = (await response.text()).split("\n").find((line) => line.startsWith("facilitator_finalize_passes_total "));
  if (sample === undefined) throw new TypeError("/metrics has no facilitator_finalize_passes_total sample");
  return Number(sample.split(" ")[1]);
}
