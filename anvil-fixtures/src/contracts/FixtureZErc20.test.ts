/**
 * Both fixture tokens against the published facts: IndexedTransfer on every balance change with the pre-increment
 * index, the version's hash chain (v2 with `from`), the 2^248 - 1 value cap, the role errors without
 * arguments, permit only under v2.
 */
import { describe, expect, it } from "vitest";
import { hashDomain, parseEventLogs, type Address } from "viem";
import { type ProtocolVersion, zerc20TokenAbi, zerc20TokenAbiV1 } from "@svc/scheme";
import { fixtureTokenAdminAbi } from "./fixtureAdminAbis.js";
import { expectRevert } from "./testing/expectRevert.js";
import { signPermit } from "./testing/signPermit.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const MAX_VALUE = (1n << 248n) - 1n;

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("fixture token %s", (version) => {
  const chain = useLocalChain({ protocol: version });
  const token = () => ({ address: chain().deployment.token, abi: zerc20TokenAbiV1 }) as const;

  async function tokenState(): Promise<{ index: bigint; hashChain: bigint }> {
    const { publicClient } = chain();
    const [index, hashChain] = await Promise.all([
      publicClient.readContract({ ...token(), functionName: "index" }),
      publicClient.readContract({ ...token(), functionName: "hashChain" }),
    ]);
    return { index, hashChain };
  }

  const balanceOf = (account: Address) => chain().publicClient.readContract({ ...token(), functionName: "balanceOf", args: [account] });

  it("has the fixture metadata and 18 decimals", async () => {
    const { publicClient } = chain();
    const read = <Name extends "name" | "symbol" | "decimals">(functionName: Name) => publicClient.readContract({ ...token(), functionName });
    expect([await read("name"), await read("symbol"), await read("decimals")]).toEqual(["Fixture zERC20", "zFIX", 18]);
  });

  it("indexes the deployment's two mints into the version's hash chain from zero", async () => {
    const { deployment, accounts, protocol } = chain();
    const zero = "0x0000000000000000000000000000000000000000";
    const afterPayer = protocol.nextHashChain(0n, { from: zero, to: accounts.payer.address, value: deployment.payerBalance });
    const afterPayer2 = protocol.nextHashChain(afterPayer, { from: zero, to: accounts.payer2.address, value: deployment.payerBalance });
    expect(await tokenState()).toEqual({ index: 2n, hashChain: afterPayer2 });
  });

  it("emits IndexedTransfer after Transfer with the pre-increment index, and advances the hash chain", async () => {
    const { accounts, wallet, mined, protocol } = chain();
    const before = await tokenState();
    const value = 1234n * 10n ** 15n;
    const receipt = await mined(wallet("payer").writeContract({ ...token(), functionName: "transfer", args: [accounts.treasury.address, value] }));

    const events = parseEventLogs({ abi: zerc20TokenAbiV1, logs: receipt.logs });
    expect(events.map((event) => event.eventName)).toEqual(["Transfer", "IndexedTransfer"]);
    const transfer = { from: accounts.payer.address, to: accounts.treasury.address, value };
    expect(events[0]?.args).toEqual(transfer);
    expect(events[1]?.args).toEqual({ index: before.index, ...transfer });
    expect(await tokenState()).toEqual({ index: before.index + 1n, hashChain: protocol.nextHashChain(before.hashChain, transfer) });
  });

  it("indexes transferFrom with the owner as `from`", async () => {
    const { accounts, wallet, mined, protocol } = chain();
    const value = 7n;
    await mined(wallet("payer").writeContract({ ...token(), functionName: "approve", args: [accounts.relayer.address, value] }));
    const before = await tokenState();
    const receipt = await mined(
      wallet("relayer").writeContract({ ...token(), functionName: "transferFrom", args: [accounts.payer.address, accounts.treasury.address, value] }),
    );
    const transfer = { from: accounts.payer.address, to: accounts.treasury.address, value };
    const [indexed] = parseEventLogs({ abi: zerc20TokenAbiV1, logs: receipt.logs, eventName: "IndexedTransfer" });
    expect(indexed?.args).toEqual({ index: before.index, ...transfer });
    expect((await tokenState()).hashChain).toBe(protocol.nextHashChain(before.hashChain, transfer));
  });

  it("accepts a value of exactly 2^248-1 and reverts ValueTooLarge() above it, on mint and on transfer", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const mint = (value: bigint) =>
      wallet("deployer").writeContract({
        address: deployment.token,
        abi: fixtureTokenAdminAbi,
        functionName: "mint",
        args: [accounts.treasury.address, value],
      });
    const tooLarge = await expectRevert(mint(MAX_VALUE + 1n), "ValueTooLarge");
    expect(tooLarge.args).toEqual([]);

    await mined(mint(MAX_VALUE));
    expect(await balanceOf(accounts.treasury.address)).toBe(MAX_VALUE);
    await expectRevert(
      wallet("treasury").writeContract({ ...token(), functionName: "transfer", args: [accounts.payer.address, MAX_VALUE + 1n] }),
      "ValueTooLarge",
    );
  });

  it("lets only the minter mint (OnlyMinter()) and only the verifier teleport (OnlyVerifier())", async () => {
    const { deployment, accounts, wallet } = chain();
    const minted = await expectRevert(
      wallet("payer").writeContract({ address: deployment.token, abi: fixtureTokenAdminAbi, functionName: "mint", args: [accounts.payer.address, 1n] }),
      "OnlyMinter",
    );
    expect(minted.args).toEqual([]);
    const teleported = await expectRevert(
      wallet("deployer").writeContract({ ...token(), functionName: "teleport", args: [accounts.payer.address, 1n] }),
      "OnlyVerifier",
    );
    expect(teleported.args).toEqual([]);
  });

  it("lets only the owner change minter and verifier", async () => {
    const { deployment, accounts, wallet } = chain();
    await expectRevert(
      wallet("payer").writeContract({ address: deployment.token, abi: fixtureTokenAdminAbi, functionName: "setVerifier", args: [accounts.payer.address] }),
      "OwnableUnauthorizedAccount",
    );
  });
});

describe("fixture token zerc20-v1", () => {
  const chain = useLocalChain({ protocol: "zerc20-v1" });

  it("has no EIP-2612 permit: nonces and DOMAIN_SEPARATOR calls revert", async () => {
    const { publicClient, deployment, accounts } = chain();
    const v2View = { address: deployment.token, abi: zerc20TokenAbi } as const;
    await expect(publicClient.readContract({ ...v2View, functionName: "nonces", args: [accounts.payer.address] })).rejects.toThrow();
    await expect(publicClient.readContract({ ...v2View, functionName: "DOMAIN_SEPARATOR" })).rejects.toThrow();
  });
});

describe("fixture token zerc20-v2", () => {
  const chain = useLocalChain({ protocol: "zerc20-v2" });

  it('applies an EIP-2612 permit signed over the domain {name(), "1"}', async () => {
    const current = chain();
    const { deployment, accounts, publicClient, wallet, mined } = current;
    const token = { address: deployment.token, abi: zerc20TokenAbi } as const;
    const value = 42n * 10n ** 18n;
    const permit = await signPermit(current, { owner: accounts.payer.privateKey, token: deployment.token, spender: deployment.permitBurner, value });
    await mined(
      wallet("relayer").writeContract({
        ...token,
        functionName: "permit",
        args: [accounts.payer.address, deployment.permitBurner, value, permit.deadline, permit.v, permit.r, permit.s],
      }),
    );
    const [allowance, nonce, separator] = await Promise.all([
      publicClient.readContract({ ...token, functionName: "allowance", args: [accounts.payer.address, deployment.permitBurner] }),
      publicClient.readContract({ ...token, functionName: "nonces", args: [accounts.payer.address] }),
      publicClient.readContract({ ...token, functionName: "DOMAIN_SEPARATOR" }),
    ]);
    expect({ allowance, nonce }).toEqual({ allowance: value, nonce: 1n });
    expect(separator).toBe(
      hashDomain({
        domain: { name: "Fixture zERC20", version: "1", chainId: BigInt(deployment.chainId), verifyingContract: deployment.token },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
  });

  it("starts with nothing teleported", async () => {
    const { publicClient, deployment } = chain();
    expect(await publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "totalTeleported" })).toBe(0n);
  });
});

describe("fixture token zerc20-v2 with 6 decimals", () => {
  const chain = useLocalChain({ protocol: "zerc20-v2", decimals: 6 });

  it("reports the decimals chosen at deployment and funds the payers with one million whole tokens", async () => {
    const { publicClient, deployment, accounts } = chain();
    const token = { address: deployment.token, abi: zerc20TokenAbi } as const;
    expect(await publicClient.readContract({ ...token, functionName: "decimals" })).toBe(6);
    expect(await publicClient.readContract({ ...token, functionName: "balanceOf", args: [accounts.payer.address] })).toBe(1_000_000n * 10n ** 6n);
  });
});
