/**
 * anvil's well-known default keys, derived from its public mnemonic rather than pasted in, so the list is
 * obviously the public one and cannot drift. Anyone can sign with these keys, which is why the startup rules
 * tolerate them only on a fully local setup.
 */
import { toHex, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** anvil's default mnemonic (public). */
export const ANVIL_DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";

/** How many of anvil's default accounts are treated as well-known (anvil funds the first 10). */
export const DEVELOPMENT_KEY_COUNT = 10;

let cached: readonly Hex[] | undefined;

/** anvil's first {@link DEVELOPMENT_KEY_COUNT} default private keys, lower-case hex; derived once, on first use. */
export function developmentKeys(): readonly Hex[] {
  // Derivation costs a few hundred milliseconds of HD-key work, so it waits until a key is actually checked.
  cached ??= [...Array(DEVELOPMENT_KEY_COUNT).keys()].flatMap((addressIndex) => {
    // A mnemonic-derived HD key always has a private key; the filter only satisfies the nullable type.
    const key = mnemonicToAccount(ANVIL_DEFAULT_MNEMONIC, { addressIndex }).getHdKey().privateKey;
    return key === null ? [] : [toHex(key)];
  });
  return cached;
}

/** The anvil account index of `privateKey`, or `undefined` when it is not a well-known development key. */
export function developmentKeyIndex(privateKey: Hex): number | undefined {
  const wanted = privateKey.toLowerCase();
  const index = developmentKeys().findIndex((key) => key === wanted);
  return index === -1 ? undefined : index;
}
