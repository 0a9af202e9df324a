import { afterEach, describe, expect, it } from "vitest";
import { createPublicClient, createTestClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { devAccounts } from "../accounts/devAccounts.js";
import { startAnvil, type StartAnvilReturnType } from "./startAnvil.js";

const started: StartAnvilReturnType[] = [];

async function start(parameters?: Parameters<typeof startAnvil>[0]): Promise<StartAnvilReturnType> {
  const anvil = await startAnvil(parameters);
  started.push(anvil);
  return anvil;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((anvil) => anvil.stop()));
});

describe("startAnvil", () => {
  it("serves chain 31337 on a free loopback port with the dev accounts funded", async () => {
    const anvil = await start();
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    expect(await client.getChainId()).toBe(31337);
    expect(await client.getBalance({ address: devAccounts().payer.address })).toBe(parseEther("10000"));
  });

  it("gives concurrent nodes different ports", async () => {
    const [first, second] = await Promise.all([start(), start()]);
    expect(first.port).not.toBe(second.port);
  });

  it("stop() ends the process, and a second stop() is harmless", async () => {
    const anvil = await start();
    expect(isRunning(anvil.pid)).toBe(true);
    await anvil.stop();
    expect(isRunning(anvil.pid)).toBe(false);
    await anvil.stop();
  });

  it("can run with automine off", async () => {
    const anvil = await start({ automine: false });
    const testClient = createTestClient({ chain: foundry, mode: "anvil", transport: http(anvil.rpcUrl) });
    expect(await testClient.getAutomine()).toBe(false);
  });

  it("can run with interval mining, which mines a sent transaction without evm_mine", async () => {
    const anvil = await start({ blockTime: 1 });
    const transport = http(anvil.rpcUrl);
    const client = createPublicClient({ chain: foundry, transport, pollingInterval: 100 });
    const sender = privateKeyToAccount(devAccounts().payer.privateKey);
    const hash = await client.sendRawTransaction({
      serializedTransaction: await sender.signTransaction({
        chainId: 31337,
        type: "eip1559",
        nonce: 0,
        gas: 21_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
        to: devAccounts().payee.address,
        value: 1n,
      }),
    });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000 });
    expect(receipt.status).toBe("success");
  });
});
