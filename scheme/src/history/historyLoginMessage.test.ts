import { describe, expect, it } from "vitest";

import { buildHistoryLoginMessage, type HistoryLoginMessageFields, parseHistoryLoginMessage } from "./historyLoginMessage.js";

const FIELDS: HistoryLoginMessageFields = {
  domain: "facilitator.example",
  tenantId: "tenant-a",
  actorId: "agent-1",
  subject: "payer",
  nonce: `0x${"ab".repeat(32)}`,
  expiresAt: 1_893_456_300,
};

describe("history login message", () => {
  it("has one exact layout", () => {
    expect(buildHistoryLoginMessage(FIELDS)).toMatchInlineSnapshot(`
      "svc-zerc20 payment history login
      Purpose: sign in to read payment history and manage payment proofs; this signature authorizes no payment
      Domain: facilitator.example
      Tenant ID: tenant-a
      Actor ID: agent-1
      Subject: payer
      Nonce: 0xabababababababababababababababababababababababababababababababab
      Expires At: 2030-01-01T00:05:00Z"
    `);
  });

  it("reads back what it wrote", () => {
    expect(parseHistoryLoginMessage(buildHistoryLoginMessage(FIELDS))).toEqual(FIELDS);
  });

  it.each([
    ["a trailing newline", (text: string) => `${text}\n`],
    ["CRLF line ends", (text: string) => text.replaceAll("\n", "\r\n")],
    ["another subject", (text: string) => text.replace("Subject: payer", "Subject: admin")],
    ["a reordered line", (text: string) => text.replace("Tenant ID: tenant-a\nActor ID: agent-1", "Actor ID: agent-1\nTenant ID: tenant-a")],
    ["a short nonce", (text: string) => text.replace(/Nonce: 0x(ab)+/, "Nonce: 0xab")],
    ["a non-canonical time", (text: string) => text.replace("2030-01-01T00:05:00Z", "2030-01-01T00:05:00.000Z")],
    ["an edited purpose", (text: string) => text.replace("authorizes no payment", "authorizes a payment")],
  ])("refuses %s", (_label, edit) => {
    expect(parseHistoryLoginMessage(edit(buildHistoryLoginMessage(FIELDS)))).toBeUndefined();
  });
});
