import { keccak256, toHex } from "viem";

import type { ReserveInput } from "../ledger/ledger.js";

let counter = 0;

/** A ledger reservation for a fresh offer (unique challenge nonce) with overrides. */
export function buildReserveInput(overrides: Partial<ReserveInput> = {}): ReserveInput {
  counter += 1;
  return {
    url: "http://127.0.0.1:4021/weather",
    mode: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    amount: 100n,
    payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    challengeNonce: keccak256(toHex(`challenge ${process.pid} ${counter} ${Math.random()}`)),
    expiresAt: 1_900_000_300,
    ...overrides,
  };
}
