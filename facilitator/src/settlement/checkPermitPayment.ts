/**
 * The checks of a gasless permit payment, read-only: both signatures recover to `payer` against the
 * facilitator's own offer, the permit value equals the quoted amount, the deadline holds, the token nonce is
 * live and the balance covers the amount. All chain reads (and, when settling, the relay's gas, block, priority
 * fee and block number) go out together in one JSON-RPC batch. Signers are recovered through a shared
 * `SignerRecovery` and the messages hashed through shared `TypedDataDigests`, so the `/settle` of a payload
 * `/verify` already checked recovers and hashes nothing again.
 */
import {
  buildBurnAuthorizationTypedData,
  buildPermitTypedData,
  DEADLINE_PASSED,
  INSUFFICIENT_BALANCE,
  INVALID_BURN_AUTHORIZATION,
  INVALID_PERMIT_SIGNATURE,
  joinSignature,
  PERMIT_PATH_UNAVAILABLE,
  PERMIT_VALUE_MISMATCH,
  permitBurnerAbi,
  STALE_PERMIT_NONCE,
  zerc20TokenAbi,
  type Offer,
  type PermitPayload,
  type ReasonCode,
} from "@svc/scheme";
import { encodeFunctionData, hexToBigInt, isAddressEqual, type Address, type Hex, type PublicClient } from "viem";
import { readRelayFees } from "../chain/readRelayFees.js";
import type { EstimatedCall } from "../chain/createKeySender.js";
import { createSignerRecovery, SIGNER_RECOVERY_CAPACITY, type SignerRecovery } from "./createSignerRecovery.js";
import { createTypedDataDigests, TYPED_DATA_DIGEST_CAPACITY, type TypedDataDigests } from "./createTypedDataDigests.js";

const SECP256K1_HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The recovery every permit check shares by default: what `/verify` recovered, `/settle` reuses. */
export const permitSignerRecovery: SignerRecovery = createSignerRecovery({ capacity: SIGNER_RECOVERY_CAPACITY });

/** The digests every permit check shares by default: what `/verify` hashed, `/settle` reuses. */
export const permitTypedDataDigests: TypedDataDigests = createTypedDataDigests({ capacity: TYPED_DATA_DIGEST_CAPACITY });

/**
 * Seconds a relayed burn needs to land before the signed deadline: PermitBurner and the token's permit both
 * revert past it, so a payment closer to its deadline than this is refused at verify rather than discovered
 * by a reverted relay.
 */
export const PERMIT_RELAY_MARGIN_SECONDS = 2;

/** The arguments of `PermitBurner.permitAndBurn`, ready to encode. */
export type PermitBurnArgs = {
  auth: {
    token: Address;
    payer: Address;
    burnAddress: Address;
    value: bigint;
    challengeNonce: Hex;
    deadline: bigint;
  };
  permit: { deadline: bigint; v: number; r: Hex; s: Hex };
  burnAuthSig: Hex;
};

/** A permit payment that passed every check. */
export type CheckedPermit = {
  payer: Address;
  helper: Address;
  /** The EIP-712 digest PermitBurner keys its replay ledger on. */
  authorizationId: Hex;
  /** True when PermitBurner already executed this authorization (a re-send after the burn). */
  alreadyExecuted: boolean;
  args: PermitBurnArgs;
  /** The PermitBurner call that executes the authorization (to `helper`). */
  calldata: Hex;
  /** The estimated relay call, when an estimate was asked for and the burn has not executed yet. */
  call: EstimatedCall | undefined;
};

/** The outcome of the checks. */
export type PermitCheck = { ok: true; permit: CheckedPermit } | { ok: false; reason: ReasonCode };

/** Inputs: the trusted offer, the payload, the token name and the clock; `relayer` asks for a relay estimate. */
export type CheckPermitPaymentParameters = {
  client: PublicClient;
  /** The offer as the facilitator issued it, never the echoed one. */
  offer: Offer;
  payload: PermitPayload;
  tokenName: string;
  now: number;
  relayer?: Address;
  /** Where signers are recovered; default `permitSignerRecovery`. */
  signers?: SignerRecovery;
  /** Where the two messages are hashed; default `permitTypedDataDigests`. */
  digests?: TypedDataDigests;
};

/** Runs every check of the permit path. Throws only when the RPC itself fails. */
export async function checkPermitPayment(parameters: CheckPermitPaymentParameters): Promise<PermitCheck> {
  const { client, offer, payload, now } = parameters;
  const { helper, deadline } = offer;
  if (helper === undefined || deadline === undefined) return { ok: false, reason: PERMIT_PATH_UNAVAILABLE };
  if (payload.permit.value !== offer.amount.toString()) return { ok: false, reason: PERMIT_VALUE_MISMATCH };
  // The payer signs extra.deadline; a different permit deadline means a different (unsigned) message.
  if (payload.permit.deadline !== String(deadline)) return { ok: false, reason: INVALID_PERMIT_SIGNATURE };
  if (now + PERMIT_RELAY_MARGIN_SECONDS > deadline) return { ok: false, reason: DEADLINE_PASSED };

  const permitSignature = signatureOrUndefined(() => joinSignature(payload.permit));
  if (!permitSignature || hexToBigInt(payload.permit.s) > SECP256K1_HALF_ORDER) {
    return { ok: false, reason: INVALID_PERMIT_SIGNATURE };
  }
  // PermitBurner recovers with OpenZeppelin's ECDSA: only v 27/28 and low s pass on-chain, although viem
  // would also recover the 0/1 parity form.
  const burnV = Number.parseInt(payload.burnAuthSig.slice(130, 132), 16);
  if ((burnV !== 27 && burnV !== 28) || hexToBigInt(`0x${payload.burnAuthSig.slice(66, 130)}`) > SECP256K1_HALF_ORDER) {
    return { ok: false, reason: INVALID_BURN_AUTHORIZATION };
  }
  // The payer signed over the offer it was shown: both messages are rebuilt here from the trusted one.
  const permitTyped = buildPermitTypedData({ offer, payer: payload.payer, nonce: BigInt(payload.permit.nonce), tokenName: parameters.tokenName });
  const burnTyped = buildBurnAuthorizationTypedData({ offer, payer: payload.payer });
  const digests = parameters.digests ?? permitTypedDataDigests;
  const permitDigest = digests.digest(permitTyped);
  if (!permitDigest) return { ok: false, reason: INVALID_PERMIT_SIGNATURE };
  const authorizationId = digests.digest(burnTyped);
  if (!authorizationId) return { ok: false, reason: INVALID_BURN_AUTHORIZATION };
  const signers = parameters.signers ?? permitSignerRecovery;
  const [permitSigner, burnSigner] = await Promise.all([signers.recover(permitDigest, permitSignature), signers.recover(authorizationId, payload.burnAuthSig)]);
  if (!permitSigner || !isAddressEqual(permitSigner, payload.payer)) return { ok: false, reason: INVALID_PERMIT_SIGNATURE };
  if (!burnSigner || !isAddressEqual(burnSigner, payload.payer)) return { ok: false, reason: INVALID_BURN_AUTHORIZATION };

  const args: PermitBurnArgs = {
    auth: burnTyped.message,
    permit: { deadline: BigInt(deadline), v: payload.permit.v, r: payload.permit.r, s: payload.permit.s },
    burnAuthSig: payload.burnAuthSig,
  };
  const token = { address: offer.asset, abi: zerc20TokenAbi } as const;
  const data = encodeFunctionData({ abi: permitBurnerAbi, functionName: "permitAndBurn", args: [args.auth, args.permit, args.burnAuthSig] });
  const [executed, nonce, balance, allowance, estimate] = await Promise.all([
    client.readContract({ address: helper, abi: permitBurnerAbi, functionName: "executed", args: [authorizationId] }),
    client.readContract({ ...token, functionName: "nonces", args: [payload.payer] }),
    client.readContract({ ...token, functionName: "balanceOf", args: [payload.payer] }),
    client.readContract({ ...token, functionName: "allowance", args: [payload.payer, helper] }),
    parameters.relayer ? estimateRelay(client, parameters.relayer, helper, data) : Promise.resolve(undefined),
  ]);
  const permit: CheckedPermit = { payer: payload.payer, helper, authorizationId, alreadyExecuted: executed, args, calldata: data, call: undefined };
  if (executed) return { ok: true, permit };

  const signedNonce = BigInt(payload.permit.nonce);
  // A permit someone already submitted (front-run) moved the nonce on but left the allowance: still payable.
  const permitUsedAhead = nonce === signedNonce + 1n && allowance >= args.auth.value;
  if (nonce !== signedNonce && !permitUsedAhead) return { ok: false, reason: STALE_PERMIT_NONCE };
  if (balance < args.auth.value) return { ok: false, reason: INSUFFICIENT_BALANCE };
  return { ok: true, permit: { ...permit, call: estimate } };
}

async function estimateRelay(client: PublicClient, relayer: Address, helper: Address, data: Hex): Promise<EstimatedCall | undefined> {
  // A relay that would revert has no estimate; the checks above name the reason, so the error is dropped here.
  const [gas, fees] = await Promise.all([client.estimateGas({ account: relayer, to: helper, data }).catch(() => undefined), readRelayFees(client)]);
  if (gas === undefined) return undefined;
  return { to: helper, data, gas: (gas * 12n) / 10n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

function signatureOrUndefined(join: () => Hex): Hex | undefined {
  try {
    return join();
  } catch {
    return undefined;
  }
}
