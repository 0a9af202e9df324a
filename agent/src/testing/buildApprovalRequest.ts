import { randomBytes } from "node:crypto";

import type { ApprovalRequest } from "../approvals/approvalFiles.js";

/** A pending approval for this process, deciding within `timeoutMs`, with overrides. */
export function buildApprovalRequest(overrides: Partial<ApprovalRequest> = {}, timeoutMs = 5_000): ApprovalRequest {
  return {
    id: randomBytes(6).toString("hex"),
    url: "http://127.0.0.1:4021/weather",
    mode: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    amount: 1010n,
    threshold: "1000",
    offerExpiresAt: 1_900_000_300,
    decideBy: Date.now() + timeoutMs,
    pid: process.pid,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}
