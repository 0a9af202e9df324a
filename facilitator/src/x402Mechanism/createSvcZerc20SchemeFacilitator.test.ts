/**
 * One official `x402Facilitator` (@x402/core) with two mechanisms registered, as an operator runs it: `exact`
 * from @x402/evm over the stack's EIP-3009 token, and svc-zerc20 through our daemon's settlement in the same
 * process. Payments are made by the official `x402Client` with both payer plugins, on a real anvil; what
 * counts is the chain afterwards (the permit burn, the EIP-3009 transfer) and that the daemon's `/verify` and
 * `/settle` give the same answers over HTTP.
 */
import { ANVIL_MNEMONIC } from "@svc/anvil-fixtures";
import { permitBurnerAbi, SvcZerc20SchemeClient, type Network } from "@svc/scheme";
import { x402Client } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme as registerExactClient } from "@x402/evm/exact/client";
import { registerExactEvmScheme as registerExactFacilitator } from "@x402/evm/exact/facilitator";
import { createWalletClient, erc20Abi, http, parseAbi, parseEventLogs, publicActions, type Abi, type Hex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InProcessSettlementStoppedError } from "../daemon/errors.js";
import { balanceOf, postJson, requestOffer, startTestDaemon, startTestStack, type TestDaemon, type TestStack } from "../testing/localFacilitator.js";
import { createSvcZerc20SchemeFacilitator } from "./createSvcZerc20SchemeFacilitator.js";
import { registerSvcZerc20Facilitator } from "./registerSvcZerc20Facilitator.js";

let stack: TestStack;
let daemon: TestDaemon;
let network: Network;
/** The official facilitator, `exact` and svc-zerc20 side by side. */
let facilitator: x402Facilitator;
/** The official payer client with both payer plugins, paying from the stack's `payer`. */
let payer: x402Client;
/** The exact mechanism's relayer: anvil's account 9, as in the bench, so its nonces never meet our relayer's. */
let exactRelayer: Hex;

beforeAll(async () => {
  stack = await startTestStack();
  daemon = await startTestDaemon(stack, "x402-mechanism");
  network = daemon.settlement.network;
  const { rpcUrl, accounts, token, usdc3009 } = stack.deployment;

  const relayer = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 });
  exactRelayer = relayer.address;
  // Receipts polled every 100 ms, as our daemon polls; viem's default (4 s) would dominate the exact settle.
  const relayerClient = createWalletClient({ account: relayer, chain: foundry, transport: http(rpcUrl), pollingInterval: 100 }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: relayer.address,
    readContract: (args) => relayerClient.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
    verifyTypedData: (args) => relayerClient.verifyTypedData(args as Parameters<typeof relayerClient.verifyTypedData>[0]),
    writeContract: (args) =>
      relayerClient.writeContract({ ...args, abi: args.abi as Abi, args: args.args } as Parameters<typeof relayerClient.writeContract>[0]),
    sendTransaction: (args) => relayerClient.sendTransaction(args),
    waitForTransactionReceipt: (args) => relayerClient.waitForTransactionReceipt(args),
    getCode: (args) => relayerClient.getCode(args),
  });
  facilitator = new x402Facilitator();
  registerExactFacilitator(facilitator, { signer, networks: network });
  facilitator.register(network, createSvcZerc20SchemeFacilitator({ settlement: daemon.settlement }));

  const payerAccount = privateKeyToAccount(accounts.payer.privateKey);
  payer = new x402Client();
  registerExactClient(payer, { signer: payerAccount, networks: [network] });
  payer.register(
    network,
    new SvcZerc20SchemeClient({
      mode: "permit",
      publicClient: stack.client,
      walletClient: createWalletClient({ account: payerAccount, chain: foundry, transport: http(rpcUrl) }),
    }),
  );
  payer.setSpendControls({
    allowedAssets: [
      { network, asset: usdc3009, maxAmountPerPayment: "1000000" },
      { network, asset: token, maxAmountPerPayment: (10n ** 24n).toString() },
    ],
  });
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

/** The 402 a provider would answer with `requirements` as its one offer. */
const paymentRequired = (requirements: PaymentRequirements): PaymentRequired => ({
  x402Version: 2,
  resource: { url: "http://provider.test/weather", description: "weather", mimeType: "application/json" },
  accepts: [requirements],
});

/** The body @x402/core's HTTPFacilitatorClient POSTs to `/verify` and `/settle`. */
const httpBody = (payment: unknown, requirements: unknown) => ({ x402Version: 2, paymentPayload: payment, paymentRequirements: requirements });

/** PermitBurner's `BurnExecuted` transactions for one challenge. */
async function burnsOf(challengeNonce: Hex): Promise<Hex[]> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    args: { challengeNonce },
    fromBlock: 0n,
    strict: true,
  });
  return events.map((event) => event.transactionHash);
}

describe("svc-zerc20 inside the official x402Facilitator", () => {
  it("getSupported lists both kinds; svc-zerc20 declares no signers, as our /supported", async () => {
    const supported = facilitator.getSupported();
    // registerExactEvmScheme also registers exact for every x402 v1 network name; v2 is what is asserted here.
    expect(supported.kinds.filter((kind) => kind.x402Version === 2)).toEqual([
      { x402Version: 2, scheme: "exact", network },
      { x402Version: 2, scheme: "svc-zerc20", network },
    ]);
    expect(supported.signers).toEqual({ "eip155:*": [exactRelayer] });
    // The register helper registers exactly the kinds the daemon serves over HTTP.
    const ours = registerSvcZerc20Facilitator(new x402Facilitator(), daemon.settlement).getSupported();
    const served = (await (await fetch(`${daemon.url}/supported`)).json()) as { kinds: unknown[]; extensions: unknown[] };
    expect({ kinds: ours.kinds, extensions: ours.extensions }).toEqual({ kinds: served.kinds, extensions: served.extensions });
  });

  it("settles a svc-zerc20 permit payment: accepted, with its one burn on-chain", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const challengeNonce = requirements.extra.challengeNonce;
    const payment = await payer.createPaymentPayload(paymentRequired(requirements));
    const payerAddress = privateKeyToAccount(stack.deployment.accounts.payer.privateKey).address;

    expect(await facilitator.verify(payment, requirements)).toEqual({ isValid: true, payer: payerAddress });
    const settled = await facilitator.settle(payment, requirements);
    expect(settled).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network,
      payer: payerAddress,
      extra: { phase: "accepted" },
    });
    expect(await burnsOf(challengeNonce)).toEqual([settled.transaction]);
    expect(await balanceOf(stack, requirements.payTo)).toBe(BigInt(requirements.amount));

    // A re-send, through the official facilitator or over HTTP, hears the same answer and burns nothing more.
    expect(await facilitator.settle(payment, requirements)).toEqual(settled);
    expect((await postJson(`${daemon.url}/settle`, httpBody(payment, requirements))).body).toEqual(settled);
    expect(await burnsOf(challengeNonce)).toEqual([settled.transaction]);
  });

  it("settles an exact payment beside it: its EIP-3009 transfer on-chain", async () => {
    const { usdc3009, accounts } = stack.deployment;
    const tokenAbi = parseAbi(["function name() view returns (string)", "function version() view returns (string)"]);
    const [name, version] = await Promise.all([
      stack.client.readContract({ address: usdc3009, abi: tokenAbi, functionName: "name" }),
      stack.client.readContract({ address: usdc3009, abi: tokenAbi, functionName: "version" }),
    ]);
    const requirements: PaymentRequirements = {
      scheme: "exact",
      network,
      asset: usdc3009,
      amount: "2500",
      payTo: accounts.payee.address,
      maxTimeoutSeconds: 60,
      extra: { name, version },
    };
    const payeeBalance = () => stack.client.readContract({ address: usdc3009, abi: erc20Abi, functionName: "balanceOf", args: [accounts.payee.address] });
    const before = await payeeBalance();
    const payment = await payer.createPaymentPayload(paymentRequired(requirements));

    expect(await facilitator.verify(payment, requirements)).toMatchObject({ isValid: true });
    const settled = await facilitator.settle(payment, requirements);
    expect(settled).toMatchObject({ success: true, network });
    const receipt = await stack.client.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(receipt.status).toBe("success");
    const transfers = parseEventLogs({
      abi: erc20Abi,
      eventName: "Transfer",
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === usdc3009.toLowerCase()),
    });
    expect(transfers.map((transfer) => transfer.args)).toEqual([{ from: accounts.payer.address, to: accounts.payee.address, value: 2500n }]);
    expect((await payeeBalance()) - before).toBe(2500n);
  });

  it("answers a bad svc-zerc20 payment with the reason our /verify and /settle give, never a throw", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const payment = await payer.createPaymentPayload(paymentRequired(requirements));
    const unknownNonce = `0x${"ab".repeat(32)}` as const;
    const cases: { label: string; payment: PaymentPayload; requirements: PaymentRequirements; reason: string }[] = [
      {
        label: "a partial permit",
        payment: { ...payment, payload: { challengeNonce: requirements.extra.challengeNonce, payer: "0x0" } },
        requirements,
        reason: "malformed_payload",
      },
      { label: "a payload of the wrong type", payment: { ...payment, payload: { burnTxHash: 7 } }, requirements, reason: "malformed_payload" },
      { label: "a changed amount", payment, requirements: { ...requirements, amount: "1" }, reason: "requirements_mismatch" },
      {
        label: "an unknown challenge",
        payment: {
          ...payment,
          accepted: { ...requirements, extra: { ...requirements.extra, challengeNonce: unknownNonce } },
          payload: { ...payment.payload, challengeNonce: unknownNonce },
        },
        requirements: { ...requirements, extra: { ...requirements.extra, challengeNonce: unknownNonce } },
        reason: "unknown_challenge",
      },
    ];
    for (const { label, payment: bad, requirements: required, reason } of cases) {
      const verified = await facilitator.verify(bad, required);
      expect(verified, label).toEqual({ isValid: false, invalidReason: reason });
      expect((await postJson(`${daemon.url}/verify`, httpBody(bad, required))).body, label).toEqual(verified);
      const settled = await facilitator.settle(bad, required);
      expect(settled, label).toEqual({ success: false, errorReason: reason, transaction: "", network });
      expect((await postJson(`${daemon.url}/settle`, httpBody(bad, required))).body, label).toEqual(settled);
    }
    // What HTTP cannot carry at all still gets a reason in process.
    const cyclic: Record<string, unknown> = { ...payment.payload };
    cyclic.self = cyclic;
    expect(await facilitator.verify({ ...payment, payload: cyclic }, requirements)).toEqual({ isValid: false, invalidReason: "malformed_payload" });
    // None of it touched the offer: the good payment still verifies.
    expect(await facilitator.verify(payment, requirements)).toMatchObject({ isValid: true });
  });

  it("refuses with a named error, quoting no secret, once the daemon stops", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const payment = await payer.createPaymentPayload(paymentRequired(requirements));
    await daemon.stop();
    const error = await facilitator.verify(payment, requirements).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InProcessSettlementStoppedError);
    expect(String(error)).toMatchInlineSnapshot(`"InProcessSettlementStoppedError: svc-zerc20 verify refused: the facilitator daemon is stopping"`);
    expect(String(error)).not.toContain(stack.deployment.rpcUrl);
  });
});
