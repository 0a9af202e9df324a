/**
 * The EIP-3009 fixture token behaves as the official x402 `exact` EVM scheme expects: the domain
 * `{name(), version(), chainId, this}`, both `transferWithAuthorization` encodings, `receiveWithAuthorization`
 * for the payee only, `authorizationState`, and the refusals (expired, not yet valid, replayed, canceled,
 * wrong signer). Typed data and ABI are written from EIP-3009 here, independently of the contract.
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs, parseSignature, parseUnits, type Address, type Hex } from "viem";
import { expectRevert } from "./testing/expectRevert.js";
import { useLocalChain, type LocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();

const authorizationInputs = [
  { name: "from", type: "address" },
  { name: "to", type: "address" },
  { name: "value", type: "uint256" },
  { name: "validAfter", type: "uint256" },
  { name: "validBefore", type: "uint256" },
  { name: "nonce", type: "bytes32" },
] as const;
const vrs = [
  { name: "v", type: "uint8" },
  { name: "r", type: "bytes32" },
  { name: "s", type: "bytes32" },
] as const;
const bytesSignature = [{ name: "signature", type: "bytes" }] as const;

/** The EIP-3009 surface the x402 `exact` scheme calls, plus the ERC-20 reads the tests need. */
const eip3009Abi = [
  { type: "function", name: "name", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "string" }] },
  { type: "function", name: "symbol", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "string" }] },
  { type: "function", name: "version", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "string" }] },
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint8" }] },
  { type: "function", name: "balanceOf", stateMutability: "view", inputs: [{ name: "account", type: "address" }], outputs: [{ name: "", type: "uint256" }] },
  {
    type: "function",
    name: "authorizationState",
    stateMutability: "view",
    inputs: [
      { name: "authorizer", type: "address" },
      { name: "nonce", type: "bytes32" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  { type: "function", name: "transferWithAuthorization", stateMutability: "nonpayable", inputs: [...authorizationInputs, ...vrs], outputs: [] },
  { type: "function", name: "transferWithAuthorization", stateMutability: "nonpayable", inputs: [...authorizationInputs, ...bytesSignature], outputs: [] },
  { type: "function", name: "receiveWithAuthorization", stateMutability: "nonpayable", inputs: [...authorizationInputs, ...vrs], outputs: [] },
  {
    type: "function",
    name: "cancelAuthorization",
    stateMutability: "nonpayable",
    inputs: [{ name: "authorizer", type: "address" }, { name: "nonce", type: "bytes32" }, ...vrs],
    outputs: [],
  },
  {
    type: "event",
    name: "AuthorizationUsed",
    inputs: [
      { name: "authorizer", type: "address", indexed: true },
      { name: "nonce", type: "bytes32", indexed: true },
    ],
  },
] as const;

type Authorization = { from: Address; to: Address; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex };

const NONCE: Hex = "0x3009300930093009300930093009300930093009300930093009300930093009";

async function buildAuthorization(overrides: Partial<Authorization> = {}): Promise<Authorization> {
  const { accounts, publicClient } = chain();
  const { timestamp } = await publicClient.getBlock();
  return {
    from: accounts.payer.address,
    to: accounts.payee.address,
    value: parseUnits("1.5", 6),
    validAfter: 0n,
    validBefore: timestamp + 600n,
    nonce: NONCE,
    ...overrides,
  };
}

function domain(current: LocalChain) {
  return { name: "Fixture USD Coin", version: "2", chainId: current.deployment.chainId, verifyingContract: current.deployment.usdc3009 };
}

function sign(
  primaryType: "TransferWithAuthorization" | "ReceiveWithAuthorization",
  auth: Authorization,
  signer: Hex = chain().accounts.payer.privateKey,
): Promise<Hex> {
  return chain()
    .wallet(signer)
    .signTypedData({ domain: domain(chain()), types: { [primaryType]: authorizationInputs }, primaryType, message: auth });
}

function splitArgs(auth: Authorization, signature: Hex) {
  const { v, r, s } = parseSignature(signature);
  return [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, Number(v), r, s] as const;
}

function read<Name extends "name" | "symbol" | "version" | "decimals">(functionName: Name) {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.usdc3009, abi: eip3009Abi, functionName });
}

function balanceOf(account: Address): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.usdc3009, abi: eip3009Abi, functionName: "balanceOf", args: [account] });
}

function transferWithVrs(auth: Authorization, signature: Hex) {
  const { wallet, deployment } = chain();
  return wallet("relayer").writeContract({
    address: deployment.usdc3009,
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: splitArgs(auth, signature),
  });
}

describe("FixtureUsdc3009", () => {
  it("has USDC-like metadata, version 2, and funds both payers with one million tokens", async () => {
    const { accounts } = chain();
    expect([await read("name"), await read("symbol"), await read("version"), await read("decimals")]).toEqual(["Fixture USD Coin", "fUSDC", "2", 6]);
    expect(await balanceOf(accounts.payer.address)).toBe(parseUnits("1000000", 6));
    expect(await balanceOf(accounts.payer2.address)).toBe(parseUnits("1000000", 6));
  });

  it("executes a (v, r, s) authorization sent by a relayer once, and refuses the replay", async () => {
    const { accounts, mined, publicClient, deployment } = chain();
    const auth = await buildAuthorization();
    const signature = await sign("TransferWithAuthorization", auth);
    const receipt = await mined(transferWithVrs(auth, signature));

    const [used] = parseEventLogs({ abi: eip3009Abi, eventName: "AuthorizationUsed", logs: receipt.logs });
    expect(used?.args).toEqual({ authorizer: accounts.payer.address, nonce: NONCE });
    expect(await balanceOf(accounts.payee.address)).toBe(auth.value);
    expect(
      await publicClient.readContract({ address: deployment.usdc3009, abi: eip3009Abi, functionName: "authorizationState", args: [auth.from, NONCE] }),
    ).toBe(true);
    await expectRevert(transferWithVrs(auth, signature), "AuthorizationUsedOrCanceled");
  });

  it("accepts the bytes-signature encoding and refuses a signature by anyone but `from`", async () => {
    const { accounts, mined, wallet, deployment } = chain();
    const auth = await buildAuthorization();
    const send = (signature: Hex) =>
      wallet("relayer").writeContract({
        address: deployment.usdc3009,
        abi: eip3009Abi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
      });
    await expectRevert(send(await sign("TransferWithAuthorization", auth, accounts.payer2.privateKey)), "InvalidSignature");
    await mined(send(await sign("TransferWithAuthorization", auth)));
    expect(await balanceOf(accounts.payee.address)).toBe(auth.value);
  });

  it("refuses an expired and a not-yet-valid authorization", async () => {
    const { timestamp } = await chain().publicClient.getBlock();
    const expired = await buildAuthorization({ validBefore: timestamp - 1n });
    await expectRevert(transferWithVrs(expired, await sign("TransferWithAuthorization", expired)), "AuthorizationExpired");
    const early = await buildAuthorization({ validAfter: timestamp + 600n, validBefore: timestamp + 1200n });
    await expectRevert(transferWithVrs(early, await sign("TransferWithAuthorization", early)), "AuthorizationNotYetValid");
  });

  it("lets only the payee submit receiveWithAuthorization", async () => {
    const { accounts, mined, wallet, deployment } = chain();
    const auth = await buildAuthorization();
    const args = splitArgs(auth, await sign("ReceiveWithAuthorization", auth));
    const receive = (signer: "relayer" | "payee") =>
      wallet(signer).writeContract({ address: deployment.usdc3009, abi: eip3009Abi, functionName: "receiveWithAuthorization", args });
    await expectRevert(receive("relayer"), "CallerNotPayee");
    await mined(receive("payee"));
    expect(await balanceOf(accounts.payee.address)).toBe(auth.value);
  });

  it("refuses an authorization its signer canceled", async () => {
    const { accounts, mined, wallet, deployment } = chain();
    const auth = await buildAuthorization();
    const cancel = await wallet("payer").signTypedData({
      domain: domain(chain()),
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: accounts.payer.address, nonce: NONCE },
    });
    const { v, r, s } = parseSignature(cancel);
    await mined(
      wallet("relayer").writeContract({
        address: deployment.usdc3009,
        abi: eip3009Abi,
        functionName: "cancelAuthorization",
        args: [accounts.payer.address, NONCE, Number(v), r, s],
      }),
    );
    await expectRevert(transferWithVrs(auth, await sign("TransferWithAuthorization", auth)), "AuthorizationUsedOrCanceled");
  });
});
