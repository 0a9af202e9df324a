/**
 * The test kit's one hand-driven payer: it signs and burns with the scheme's own builders
 * (`buildPermitTypedData`, `buildBurnAuthorizationTypedData`, `buildPermitPayload`,
 * `buildSelfTransferPayload`) but skips the payer plugin's checks, so tests can also pay offers the agent
 * would refuse (tampered, expired, reused). It refuses only what cannot exist: a permit for a v1 token.
 */
import {
  buildBurnAuthorizationTypedData,
  buildPermitPayload,
  buildPermitTypedData,
  buildSelfTransferPayload,
  DEFAULT_PROTOCOL_VERSION,
  fromOfferRequirements,
  zerc20Protocol,
  zerc20TokenAbi,
  zerc20TokenAbiV1,
  type PaymentRequirements,
  type PermitPayload,
  type ProtocolVersion,
  type SelfTransferPayload,
} from "@svc/scheme";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { BaseError } from "../errors.js";

/** Options of {@link createTestPayer}. */
export type CreateTestPayerParameters = {
  /** The local chain's RPC URL. */
  rpcUrl: string;
  /** The payer's key (a funded dev account such as `payer`). */
  privateKey: Hex;
  /** The version of the tokens it pays with (default `zerc20-v2`); a `zerc20-v1` token has no permit. */
  protocol?: ProtocolVersion;
};

/** A payer bound to one key on the local chain. */
export type TestPayer = {
  address: Address;
  /**
   * Signs both permit-path signatures for `requirements` against the token's live nonce and name; sends nothing.
   * Rejects with {@link PermitUnsupportedError} under `zerc20-v1`.
   */
  signPermit: (requirements: PaymentRequirements) => Promise<PermitPayload>;
  /** Transfers `amount` (default the offer's amount) of the offer's token to its `payTo`; resolves with the mined hash. */
  burn: (requirements: PaymentRequirements, amount?: bigint) => Promise<Hex>;
  /** Sends `amount` of `token` to `to` and waits for a successful receipt. */
  transfer: (parameters: { token: Address; to: Address; amount: bigint }) => Promise<Hex>;
  /** The self-transfer path: burns the offer's amount, then builds the payload naming that transaction. */
  paySelfTransfer: (requirements: PaymentRequirements) => Promise<SelfTransferPayload>;
};

/** A transfer the test payer sent was mined but reverted. */
export class TestTransferRevertedError extends BaseError {
  override name = "TestTransferRevertedError";
  constructor(hash: Hex) {
    super(`transfer ${hash} reverted`);
  }
}

/** A permit payment was asked for with a `zerc20-v1` token, which has no EIP-2612 permit. */
export class PermitUnsupportedError extends BaseError {
  override name = "PermitUnsupportedError";
  constructor(readonly context: { protocol: ProtocolVersion; token: Address }) {
    super(`token ${context.token} is ${context.protocol}, which has no EIP-2612 permit: pay by self-transfer`);
  }
}

/**
 * Binds a payer key to the local chain.
 *
 * @example
 * const payer = createTestPayer({ rpcUrl: stack.deployment.rpcUrl, privateKey: stack.deployment.accounts.payer.privateKey });
 * const payload = await payer.signPermit(offer);
 */
export function createTestPayer(parameters: CreateTestPayerParameters): TestPayer {
  const account = privateKeyToAccount(parameters.privateKey);
  const transport = http(parameters.rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  const wallet = createWalletClient({ chain: foundry, transport, account });
  const protocol = zerc20Protocol(parameters.protocol ?? DEFAULT_PROTOCOL_VERSION);
  const transfer: TestPayer["transfer"] = async ({ token, to, amount }) => {
    // `transfer` is the same in both versions.
    const hash = await wallet.writeContract({ address: token, abi: zerc20TokenAbiV1, functionName: "transfer", args: [to, amount] });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new TestTransferRevertedError(hash);
    return hash;
  };
  const burn: TestPayer["burn"] = (requirements, amount = BigInt(requirements.amount)) =>
    transfer({ token: requirements.asset, to: requirements.payTo, amount });
  return {
    address: account.address,
    signPermit: async (requirements) => {
      if (!protocol.tokenHasPermit) throw new PermitUnsupportedError({ protocol: protocol.version, token: requirements.asset });
      const token = { address: requirements.asset, abi: zerc20TokenAbi } as const;
      const [nonce, tokenName] = await Promise.all([
        publicClient.readContract({ ...token, functionName: "nonces", args: [account.address] }),
        publicClient.readContract({ ...token, functionName: "name" }),
      ]);
      const payer = account.address;
      const offer = fromOfferRequirements(requirements);
      const permitSignature = await account.signTypedData(buildPermitTypedData({ offer, payer, nonce, tokenName }));
      const burnAuthorizationSignature = await account.signTypedData(buildBurnAuthorizationTypedData({ offer, payer }));
      return buildPermitPayload({ offer, payer, nonce, permitSignature, burnAuthorizationSignature });
    },
    burn,
    transfer,
    paySelfTransfer: async (requirements) => buildSelfTransferPayload({ offer: requirements.extra, burnTxHash: await burn(requirements) }),
  };
}
