/**
 * The burn-address seed: `seed = keccak256(utf8("svc-zerc20/burn-seed/v1") || treasuryPk)`, where `treasuryPk`
 * is the 32 raw bytes of `SVC_TREASURY_PK`. The tag keeps the seed unrelated to any other hash of the key
 * (a signature nonce, another product's derivation), and its version lets a future scheme change the seed
 * without reusing old burn addresses. Hashing rather than using the key itself means a leaked seed or
 * per-payment secret never exposes the signing key.
 */
import { concat, keccak256, toHex, type Hex } from "viem";

/** Domain tag hashed in front of the treasury key; changing it changes every future burn address. */
export const BURN_SEED_TAG = "svc-zerc20/burn-seed/v1";

/** Derives the 32-byte burn-address seed from the treasury private key (`SVC_TREASURY_PK`). */
export function deriveBurnSeed(treasuryPk: Hex): Hex {
  return keccak256(concat([toHex(BURN_SEED_TAG), treasuryPk]));
}
