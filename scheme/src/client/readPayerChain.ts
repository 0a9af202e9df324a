import { ChainMismatchError } from "./errors.js";
import type { Address } from "../wire/address.js";
import type { Offer } from "../wire/offer.js";
import { zerc20TokenAbi } from "../zerc20/abis.js";
import type { PayerClients } from "./payerClients.js";

/** What the payer plugin reads before it signs: the chain the RPC serves and the payer's token balance. */
export type PayerChainState = { chainId: number; balance: bigint };

/** A permit also needs the payer's EIP-2612 nonce and the token's EIP-712 domain name. */
export type PermitChainState = PayerChainState & { nonce: bigint; tokenName: string };

/** Inputs of `readPayerChain`; `permit` adds the nonce and the token name. */
export type ReadPayerChainParameters = {
  publicClient: PayerClients["publicClient"];
  offer: Pick<Offer, "chainId" | "asset">;
  payer: Address;
  permit: boolean;
};

type PublicClient = PayerClients["publicClient"];
type Remembered = { chainId?: Promise<number>; tokenNames: Map<string, Promise<string>> };

// What cannot change behind one client (its RPC's chain id, a token's name), kept per client object.
const rememberedByClient = new WeakMap<PublicClient, Remembered>();

function rememberedFor(publicClient: PublicClient): Remembered {
  let remembered = rememberedByClient.get(publicClient);
  if (!remembered) {
    remembered = { tokenNames: new Map() };
    rememberedByClient.set(publicClient, remembered);
  }
  return remembered;
}

// A failed read is not remembered, so the next payment asks again.
function remember<T>(read: () => Promise<T>, get: () => Promise<T> | undefined, set: (value: Promise<T> | undefined) => void): Promise<T> {
  const known = get();
  if (known) return known;
  const reading = read();
  set(reading);
  reading.catch(() => {
    if (get() === reading) set(undefined);
  });
  return reading;
}

/**
 * Reads what the payment needs, every read issued in the same tick so that a batching transport (viem's
 * `http(url, { batch: true })`, or `coalesceJsonRpc` under it) sends them as one JSON-RPC round trip; the chain id and the token name are
 * read once per client, since neither changes behind one RPC endpoint.
 * Throws `ChainMismatchError` when the RPC serves another chain than the offer's, ahead of any other read's
 * failure (on the wrong chain the token may not exist at all).
 *
 * @example
 * const { balance, nonce, tokenName } = await readPayerChain({ publicClient, offer, payer, permit: true });
 */
export function readPayerChain(parameters: ReadPayerChainParameters & { permit: true }): Promise<PermitChainState>;
export function readPayerChain(parameters: ReadPayerChainParameters & { permit: false }): Promise<PayerChainState>;
export async function readPayerChain(parameters: ReadPayerChainParameters): Promise<PayerChainState | PermitChainState> {
  const { publicClient, offer, payer, permit } = parameters;
  const remembered = rememberedFor(publicClient);
  const token = { address: offer.asset, abi: zerc20TokenAbi } as const;
  const nameKey = offer.asset.toLowerCase();
  const [chainId, balance, nonce, tokenName] = await Promise.allSettled([
    remember(
      () => publicClient.getChainId(),
      () => remembered.chainId,
      (value) => (remembered.chainId = value),
    ),
    publicClient.readContract({ ...token, functionName: "balanceOf", args: [payer] }),
    permit ? publicClient.readContract({ ...token, functionName: "nonces", args: [payer] }) : undefined,
    permit
      ? remember(
          () => publicClient.readContract({ ...token, functionName: "name" }),
          () => remembered.tokenNames.get(nameKey),
          (value) => (value === undefined ? remembered.tokenNames.delete(nameKey) : remembered.tokenNames.set(nameKey, value)),
        )
      : undefined,
  ]);
  const expected = offer.chainId;
  const actual = settledValue(chainId);
  if (actual !== expected) throw new ChainMismatchError({ expected, actual });
  const state = { chainId: actual, balance: settledValue(balance) };
  const permitNonce = settledValue(nonce);
  const name = settledValue(tokenName);
  return permitNonce === undefined || name === undefined ? state : { ...state, nonce: permitNonce, tokenName: name };
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}
