/**
 * Reads the facilitator's secrets from an environment record (passed in, so tests never touch
 * `process.env`). Rules, documented here because the spec leaves them open:
 * - An empty variable counts as unset (an `SVC_ADMIN_TOKEN=` line in an env file configures nothing).
 * - Private keys are `0x` and 64 hex digits and must be valid secp256k1 scalars (non-zero, below the order).
 * - `SVC_ADMIN_TOKEN` is optional here (the startup rules decide when it is required); when set it must be at
 *   least {@link MIN_ADMIN_TOKEN_LENGTH} visible ASCII characters, so it fits a bearer header unchanged and
 *   cannot be guessed quickly.
 * The returned object hides its values from `JSON.stringify` and `util.inspect`, so logging it by mistake
 * prints no key.
 */
import { inspect } from "node:util";
import type { Hex } from "viem";

import { InvalidSecretError, MissingSecretError, type SecretVariable } from "./errors.js";

/** Shortest accepted `SVC_ADMIN_TOKEN`: 16 characters, a floor against hand-typed short passwords. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** An environment record such as `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The facilitator's secrets, validated. */
export type FacilitatorSecrets = {
  /** `SVC_TREASURY_PK`: seeds burn addresses; signs custodial fee sweeps. */
  readonly treasuryPk: Hex;
  /** `SVC_RELAYER_PK`: relays permit burns; also submits mints and fee distributions when no minter key is set. */
  readonly relayerPk: Hex;
  /**
   * `SVC_MINTER_PK`, or `undefined` when unset: submits proof-gated mints and fee-splitter distributions, so
   * the account that relays a payer's burn never sends the mint that pays the treasury.
   */
  readonly minterPk: Hex | undefined;
  /** `SVC_ADMIN_TOKEN`, or `undefined` when unset. */
  readonly adminToken: string | undefined;
};

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Validates `SVC_TREASURY_PK`, `SVC_RELAYER_PK` and (when set) `SVC_MINTER_PK` and `SVC_ADMIN_TOKEN` from `env`. */
export function parseSecrets(env: Environment): FacilitatorSecrets {
  const secrets = {
    treasuryPk: privateKey(env, "SVC_TREASURY_PK"),
    relayerPk: privateKey(env, "SVC_RELAYER_PK"),
    minterPk: read(env, "SVC_MINTER_PK") === undefined ? undefined : privateKey(env, "SVC_MINTER_PK"),
    adminToken: adminToken(env),
  };
  const redacted = () => "[FacilitatorSecrets redacted]";
  Object.defineProperty(secrets, "toJSON", { value: redacted, enumerable: false });
  Object.defineProperty(secrets, inspect.custom, { value: redacted, enumerable: false });
  return secrets;
}

function read(env: Environment, variable: SecretVariable): string | undefined {
  const value = env[variable];
  return value === undefined || value === "" ? undefined : value;
}

function privateKey(env: Environment, variable: "SVC_TREASURY_PK" | "SVC_RELAYER_PK" | "SVC_MINTER_PK"): Hex {
  const value = read(env, variable);
  if (value === undefined) throw new MissingSecretError({ variable });
  if (!PRIVATE_KEY.test(value)) {
    throw new InvalidSecretError({ variable, reason: "expected 0x followed by 64 hex digits (a 32-byte private key)" });
  }
  const scalar = BigInt(value);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) {
    const reason = "not a valid secp256k1 private key (zero or not below the curve order)";
    throw new InvalidSecretError({ variable, reason });
  }
  return `0x${value.slice(2)}`;
}

function adminToken(env: Environment): string | undefined {
  const value = read(env, "SVC_ADMIN_TOKEN");
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]+$/.test(value)) {
    const reason = "only visible ASCII characters are allowed (no spaces)";
    throw new InvalidSecretError({ variable: "SVC_ADMIN_TOKEN", reason });
  }
  if (value.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new InvalidSecretError({
      variable: "SVC_ADMIN_TOKEN",
      reason: `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long`,
    });
  }
  return value;
}
