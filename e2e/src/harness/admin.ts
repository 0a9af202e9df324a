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
