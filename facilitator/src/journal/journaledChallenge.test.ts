import { describe, expect, it } from "vitest";

import { buildChallengeRecord } from "../challenges/testing/buildChallengeRecord.js";
import { fromJournaledChallenge, toJournaledChallenge } from "./journaledChallenge.js";
import { JournaledChallengeSchema } from "./journalRecord.js";

describe("the journal form of an issued challenge", () => {
  it("writes decimal strings, the payer fee as extraFee, and no burn secret", () => {
    const record = buildChallengeRecord({ helper: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", deadline: 1300 });
    const journaled = toJournaledChallenge(record);
    expect(Object.keys(journaled)).toEqual([
      "challengeNonce",
      "protocol",
      "network",
      "chainId",
      "asset",
      "payTo",
      "amount",
      "fee",
      "payout",
      "extraFee",
      "helper",
      "deadline",
      "issuedAt",
      "expiresAt",
    ]);
    expect(journaled).toMatchObject({ network: "eip155:31337", amount: "1010", fee: "10", payout: "1000", extraFee: { amount: "10", bps: 100 } });
    expect(JSON.stringify(journaled)).not.toContain(record.burn?.tweak.slice(2) ?? "no burn");
  });

  it("leaves the optional keys out when the offer has none", () => {
    const journaled = toJournaledChallenge(buildChallengeRecord({ fee: undefined, quote: { amount: 1010n, fee: 0n, payout: 1010n, extraFee: undefined } }));
    expect(journaled).not.toHaveProperty("extraFee");
    expect(journaled).not.toHaveProperty("helper");
    expect(journaled).not.toHaveProperty("deadline");
  });

  it("reads back the same challenge, without its secret, through the disk schema", () => {
    const record = buildChallengeRecord({ helper: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", deadline: 1300 });
    const onDisk = JournaledChallengeSchema.parse(JSON.parse(JSON.stringify(toJournaledChallenge(record))));
    expect(fromJournaledChallenge(onDisk)).toEqual({ ...record, burn: undefined });
  });

  it("keeps the protocol version, and reads a challenge journaled before versions were recorded as v1", () => {
    const v1 = JournaledChallengeSchema.parse(JSON.parse(JSON.stringify(toJournaledChallenge(buildChallengeRecord({ protocol: "zerc20-v1" })))));
    expect(fromJournaledChallenge(v1).protocol).toBe("zerc20-v1");
    const { protocol: _dropped, ...older } = toJournaledChallenge(buildChallengeRecord({ protocol: "zerc20-v2" }));
    expect(fromJournaledChallenge(JournaledChallengeSchema.parse(older)).protocol).toBe("zerc20-v1");
    expect(JournaledChallengeSchema.safeParse({ ...older, protocol: "zerc20-v9" }).success).toBe(false);
  });
});
