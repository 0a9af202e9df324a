/**
 * A relay whose storage fails before the relay is journaled sent nothing: the `StorageUnavailableError` goes
 * up (the HTTP layer's `storage_unavailable`), nothing is released, nothing is broadcast, and the answer is
 * never `relay_failed`. Real parts: the PostgreSQL adapter and the key sender over a database nobody
 * answers for, and a JSON-RPC endpoint that counts every request.
 */
import { createServer, type AddressInfo } from "node:net";
import { createServer as createHttpServer } from "node:http";
import pg from "pg";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeySender } from "../chain/createKeySender.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import { createLogger } from "../log/createLogger.js";
import { StorageUnavailableError } from "../storage/errors.js";
import { createPostgresStorage } from "../storage/openPostgresStorage.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import { createPermitRelays } from "./createPermitRelays.js";

const CHALLENGE_NONCE = `0x${"cd".repeat(32)}` as Hex;
let storage: FacilitatorStorage;
let rpcRequests = 0;
let rpc: ReturnType<typeof createHttpServer>;
let rpcUrl: string;

beforeAll(async () => {
  // A port that was free a moment ago: every database connection to it is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const pool = (max: number) => {
    const created = new pg.Pool({ connectionString: `postgres://svc:svc@127.0.0.1:${port}/svc`, max });
    created.on("error", () => undefined);
    return created;
  };
  storage = createPostgresStorage(pool(2), { lockPool: pool(1) });
  rpc = createHttpServer((request, response) => {
    rpcRequests += 1;
    request.resume();
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
  rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await storage?.close();
  await new Promise<void>((resolve) => rpc?.close(() => resolve()));
});

describe("createPermitRelays", () => {
  it("lets a storage failure before the relay is journaled go up, and sends and releases nothing", async () => {
    const client = createPublicClient({ chain: foundry, transport: http(rpcUrl, { retryCount: 0 }) });
    const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
    const relayer = createKeySender({ client, chain: foundry, account, nonces: storage.relayNonces });
    const recorded: JournalRecord[] = [];
    const answers: string[] = [];
    const relays = createPermitRelays({
      client,
      relayer,
      record: async (record) => {
        recorded.push(record);
      },
      logger: createLogger({ write: () => undefined }),
      now: () => 1,
      accept: async () => {
        answers.push("accepted");
        return { success: true, transaction: "0x", network: "eip155:31337" } as never;
      },
      confirm: async (burn) => burn,
      failure: (reason) => {
        answers.push(reason);
        return { success: false, errorReason: reason, transaction: "", network: "eip155:31337" };
      },
      receiptTimeoutMs: 100,
    });
    const payment = {
      challenge: { challengeNonce: CHALLENGE_NONCE } as ChallengeRecord,
      digest: CHALLENGE_NONCE,
      payer: account.address,
      helper: account.address,
      authorizationId: CHALLENGE_NONCE,
      fromBlock: 0n,
      calldata: undefined,
    };
    const call = { to: account.address, data: "0x" as Hex, gas: 100_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n };

    await expect(relays.relay(payment, call as never)).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(answers).toEqual([]);
    expect(recorded).toEqual([]);
    expect(rpcRequests).toBe(0);
  });
});
