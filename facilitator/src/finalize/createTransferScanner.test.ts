/**
 * The transfer scanner on a real anvil chain with the real token: it finds every transfer to a burn address
 * from the challenge's issuance on, including one sent before the accepted burn, across several getLogs
 * chunks, and nothing from before the issuance.
 */
import { zerc20TokenAbi } from "@svc/scheme";
import { createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { createTransferScanner, ISSUANCE_SLACK_SECONDS } from "./createTransferScanner.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

async function transfer(to: Address, value: bigint): Promise<bigint> {
  const wallet = createWalletClient({
    chain: foundry,
    transport: http(stack.deployment.rpcUrl),
    account: privateKeyToAccount(stack.deployment.accounts.payer.privateKey),
  });
  const hash = await wallet.writeContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "transfer", args: [to, value] });
  return (await stack.client.waitForTransactionReceipt({ hash })).blockNumber;
}

const mine = (blocks: number) => stack.client.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

describe("createTransferScanner", () => {
  it("finds the burn address's transfers from its issuance on, in and around the burn, and lists the others apart", async () => {
    const burnAddress = "0x00000000000000000000000000000000000b0001" as Address;
    const someoneElse = "0x00000000000000000000000000000000000e1001" as Address;
    // A transfer to the same address long before the challenge existed stays out of the scan.
    await transfer(burnAddress, 1n);
    await stack.client.request({ method: "evm_increaseTime" as never, params: [Number(ISSUANCE_SLACK_SECONDS) * 3] as never });
    await mine(1);
    const issuedAt = Number((await stack.client.getBlock()).timestamp);
    await mine(5);
    await transfer(burnAddress, 10n); // paid in parts: this part precedes the accepted burn
    await transfer(someoneElse, 20n);
    await mine(7);
    const burnBlock = await transfer(burnAddress, 30n);
    await mine(3);
    await transfer(burnAddress, 40n); // after the burn, still the burn address's
    const target = { challenge: { challengeNonce: `0x${"ab".repeat(32)}` as Hex, payTo: burnAddress, issuedAt }, burnBlockNumber: burnBlock.toString() };

    for (const chunkBlocks of [3n, 2_000n]) {
      const { transfers, others } = await createTransferScanner({ client: stack.client, token: stack.deployment.token, chunkBlocks }).transfersTo(target);
      expect(transfers.map((found) => found.value)).toEqual([10n, 30n, 40n]);
      expect(transfers.every((found, index) => index === 0 || found.event_index > transfers[index - 1]!.event_index)).toBe(true);
      expect(others.map((found) => [found.to.toLowerCase(), found.value])).toContainEqual([someoneElse.toLowerCase(), 20n]);
      expect(others.every((found) => found.to.toLowerCase() !== burnAddress.toLowerCase())).toBe(true);
    }
  });
});
