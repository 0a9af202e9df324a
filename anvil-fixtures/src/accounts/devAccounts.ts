/**
 * Named development accounts of the local stack. They are anvil's well-known accounts (derived from its
 * public default mnemonic), so anyone can reproduce them; the facilitator accepts them only under profile
 * `local` on a loopback chain 31337.
 */
import { FIXTURE_PROVER_PRIVATE_KEY } from "@svc/scheme";
import { toHex, type Address, type Hex } from "viem";
import { mnemonicToAccount, privateKeyToAddress } from "viem/accounts";

/** anvil's default mnemonic (public). */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Named roles, in the order of anvil's default accounts. */
export const DEV_ACCOUNT_NAMES = ["deployer", "treasury", "relayer", "payer", "payer2", "feeRecipient", "rootProver", "payee"] as const;

/** One of the roles above. */
export type DevAccountName = (typeof DEV_ACCOUNT_NAMES)[number];

/** An address with the private key that controls it. */
export type DevAccount = { address: Address; privateKey: Hex };

/** Every named dev account, keyed by role. */
export function devAccounts(): Record<DevAccountName, DevAccount> {
  const entries = DEV_ACCOUNT_NAMES.map((name, addressIndex) => {
    const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new TypeError(`dev account ${name} has no private key`);
    return [name, { address: account.address, privateKey: toHex(key) }] as const;
  });
  return Object.fromEntries(entries) as Record<DevAccountName, DevAccount>;
}

/** The published fixture proof key (defined with the fixture proof format in `@svc/scheme`). */
export { FIXTURE_PROVER_PRIVATE_KEY };

/** Address of {@link FIXTURE_PROVER_PRIVATE_KEY}. */
export const FIXTURE_PROVER_ADDRESS: Address = privateKeyToAddress(FIXTURE_PROVER_PRIVATE_KEY);
