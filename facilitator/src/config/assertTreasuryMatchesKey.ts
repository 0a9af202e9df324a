/**
 * The custodial-mode key check: fees are swept from the treasury with `SVC_TREASURY_PK`, so the treasury
 * must be that key's address. In split mode (the treasury is the splitter contract) and without a fee the
 * key only seeds burn addresses, and any treasury is fine.
 */
import { isAddressEqual } from "viem";
import { privateKeyToAddress } from "viem/accounts";

import { TreasuryKeyMismatchError } from "./errors.js";
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import type { FacilitatorSecrets } from "./parseSecrets.js";

/** Throws {@link TreasuryKeyMismatchError} in custodial fee mode unless the treasury is the address of `SVC_TREASURY_PK`. */
export function assertTreasuryMatchesKey(config: Pick<FacilitatorConfig, "fee" | "settlement">, secrets: Pick<FacilitatorSecrets, "treasuryPk">): void {
  if (config.fee?.mode !== "custodial") return;
  const keyAddress = privateKeyToAddress(secrets.treasuryPk);
  if (!isAddressEqual(keyAddress, config.settlement.treasury)) throw new TreasuryKeyMismatchError({ keyAddress });
}
