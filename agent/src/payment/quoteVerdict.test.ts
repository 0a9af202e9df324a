import { join } from "node:path";

import { buildRequirements } from "@svc/scheme/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Ledger } from "../ledger/ledger.js";
import { baseUnitsLimit, buildPolicy } from "../testing/buildPolicy.js";
import { buildQuote } from "../testing/buildQuote.js";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { makeTempDir } from "../testing/tempDir.js";
import { quoteVerdict } from "./quoteVerdict.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let ledgers = 0;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await dir.remove();
});

/** A quote of 1000 base units from 127.0.0.1, after a reservation of 1000 from `url` (the same token and network), on a fresh ledger. */
async function quoteAfterSpending(limits: Parameters<typeof buildPolicy>[0], url = "http://127.0.0.1:4021/weather") {
  const stateDir = join(dir.path, `state-${++ledgers}`);
  const ledger = new Ledger(stateDir);
  const policy = buildPolicy({ stateDir, ...limits });
  await ledger.reserve(buildReserveInput({ url, amount: 1000n }), {});
  const quote = buildQuote(buildRequirements({ amount: "1000" }), policy);
  expect(quote.evaluation).toMatchObject({ kind: "allowed" });
  return quoteVerdict(quote, policy, ledger);
}

describe("quoteVerdict, beyond the total cap", () => {
  it("declines what a rolling window would refuse, naming the window, and allows what it leaves room for", async () => {
    expect(await quoteAfterSpending({ maxPerDay: baseUnitsLimit(1500n) })).toMatchObject({ kind: "declined", reason: "above_max_per_day" });
    expect(await quoteAfterSpending({ maxPerDay: baseUnitsLimit(2000n) })).toMatchObject({ kind: "allowed" });
  });

  it("declines what the host's budget would refuse, counting only that host's spend", async () => {
    expect(await quoteAfterSpending({ maxPerHost: baseUnitsLimit(1500n) })).toMatchObject({ kind: "declined", reason: "above_max_per_host" });
    expect(await quoteAfterSpending({ maxPerHost: baseUnitsLimit(1500n) }, "http://other.example/weather")).toMatchObject({ kind: "allowed" });
  });
});
