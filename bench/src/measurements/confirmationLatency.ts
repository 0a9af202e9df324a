/**
 * Section 11: settle latency under confirmations. `[network] confirmations` makes our `/settle` wait until a
 * burn is that many blocks deep before it answers accepted; on the automine chain of the other sections a
 * second block never comes by itself, so this section runs on a stack of its own whose anvil mines a block
 * every {@link BLOCK_TIME_SECONDS} s. On it, the official exact facilitator (its settle waits for the
 * transfer's receipt: one block) and two of ours, at 1 and 2 confirmations, each `/settle` as the provider
 * calls it, one at a time:
 * - exact and our permit path: the payment is signed first, then `/settle` relays it and waits (the
 *   comparable paths: the facilitator's transaction, the facilitator's wait);
 * - our self-transfer path: the payer's 402, burn and its receipt, then `/settle` (the payer waits for the
 *   first block itself), and `/settle` alone.
 * Each timed start lies at a set phase of the block interval (`confirmations/blockClock.ts`: the same for
 * every variant of a round), so the figures average over where in the interval a payment arrives.
 */
import { startStack } from "@svc/anvil-fixtures";
import { createTestClient, http, keccak256, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { roundPhase, startBlockClock, type BlockClock } from "../confirmations/blockClock.js";
import { BenchError } from "../harness/benchError.js";
import { parseLogEvents } from "../harness/facilitatorLog.js";
import { booleanField, postJson } from "../harness/postJson.js";
import { startExactSide } from "../harness/startExactSide.js";
import { startOurFacilitator, type OurFacilitator } from "../harness/startOurFacilitator.js";
import { startPayer, type Payer, type PreparedPayment } from "../harness/startPayer.js";
import { pairedDifferences, summarize, type Summary } from "../harness/stats.js";

/** Seconds between the section's blocks: slow enough that a block dwarfs the loopback work, fast enough for a short section. */
export const BLOCK_TIME_SECONDS = 1;

/** The confirmations our two facilitators wait for. */
export const CONFIRMATION_DEPTHS = [1, 2] as const;

/** `settlement.permit_receipt_timeout_ms` of ours: far above two blocks, so no settle answers `pending_burn`. */
const PERMIT_RECEIPT_TIMEOUT_MS = 30_000;

/** List price of our `/weather` (0.001 zERC20; the offer adds the stack's 1% payer fee). */
const OURS_PRICE = "1000000000000000";
/** Price of the exact `/weather` (0.001 of the 6-decimal EIP-3009 token). */
const EXACT_PRICE = "1000";

/** The relayer of the 2-confirmation facilitator: a key of its own, so the two never share relayer nonces. */
const SECOND_RELAYER_KEY = keccak256(toHex("svc-zerc20/bench-confirmations-relayer"));

/** Our figures at one depth. */
export type ConfirmationDepthResult = {
  /** `network.confirmations` of this facilitator. */
  confirmations: number;
  /** `POST /settle` of a signed permit payment (relay, receipt, confirmations), ms. */
  permitSettleMs: Summary;
  /** The payer's 402, burn and its receipt, then `POST /settle`, ms. */
  selfTransferMs: Summary;
  /** `POST /settle` alone of a self-transfer burn already in a block, ms. */
  selfTransferSettleMs: Summary;
  /** Permit settle minus exact settle of the same round (same phase of the block interval), ms. */
  permitOverExactMs: Summary;
};

/** What section 11 measured. */
export type ConfirmationLatencyResult = {
  /** anvil's interval (`evm_setIntervalMining`), s. */
  blockTimeSeconds: number;
  /** The intervals between blocks as the bench saw them, ms. */
  observedBlockIntervalMs: Summary;
  /** Timed settles per variant. */
  runs: number;
  /** The exact facilitator's `POST /settle` (transfer and its receipt), ms. */
  exactSettleMs: Summary;
  /** Ours at each of {@link CONFIRMATION_DEPTHS}. */
  ours: ConfirmationDepthResult[];
  /** Permit settle at the deepest depth minus at 1 confirmation, per extra confirmation, round by round, ms. */
  perExtraConfirmationMs: Summary;
  /** `settlement.permit_receipt_timeout_ms` of ours. */
  permitReceiptTimeoutMs: number;
  /** Section wall time, s (stack start included). */
  durationSeconds: number;
  failures: string[];
};

/** Samples by round (a failed run leaves a hole), so variants can be compared round by round. */
type Samples = (number | undefined)[];

/** One of our facilitators of the section and the samples it collects. */
type Depth = { confirmations: number; facilitator: OurFacilitator; permit: Samples; selfTransfer: Samples; selfTransferSettle: Samples };

function summarizeRounds(samples: Samples): Summary {
  return summarize(samples.filter((sample): sample is number => sample !== undefined));
}

/** Runs section 11 in `dir` on a stack, payer and facilitators of its own, and stops them. */
export async function measureConfirmationLatency(parameters: {
  dir: string;
  runs: number;
  progress: (message: string) => void;
}): Promise<ConfirmationLatencyResult> {
  const { dir, runs, progress } = parameters;
  const started = performance.now();
  const failures: string[] = [];
  const stoppers: (() => Promise<unknown>)[] = [];
  try {
    progress("confirmations: starting a stack of its own (deployed on automine, then a block every second)");
    const stack = await startStack({ dir, facilitatorPort: 0, rootIntervalMs: 0 });
    stoppers.push(stack.stop);
    const { deployment } = stack;
    const testClient = createTestClient({ mode: "anvil", transport: http(deployment.rpcUrl) });
    await testClient.setBalance({ address: privateKeyToAccount(SECOND_RELAYER_KEY).address, value: parseEther("100") });
    const payer: Payer = await startPayer({
      rpcUrl: deployment.rpcUrl,
      chainId: deployment.chainId,
      oursAsset: deployment.token,
      exactAsset: deployment.usdc3009,
      maxAmount: "1000000000000000000",
    });
    stoppers.push(payer.stop);
    const exact = await startExactSide({ stack, price: EXACT_PRICE });
    stoppers.push(exact.stop);
    const depths: Depth[] = [];
    for (const confirmations of CONFIRMATION_DEPTHS) {
      const facilitator = await startOurFacilitator({
        stack,
        dir,
        name: `confirmations-${confirmations}`,
        price: OURS_PRICE,
        // No root job runs, so the finalize loop has nothing to mint: a slow loop keeps its polling out of the way.
        overrides: {
          finalizeIntervalMs: 60_000,
          challengeTtlSeconds: 1800,
          maxOpenChallenges: 1000,
          confirmations,
          permitReceiptTimeoutMs: PERMIT_RECEIPT_TIMEOUT_MS,
        },
        ...(confirmations === 1 ? {} : { env: { SVC_RELAYER_PK: SECOND_RELAYER_KEY } }),
      });
      stoppers.push(facilitator.stop);
      const reported = parseLogEvents(facilitator.facilitator.lines).find((event) => event.event === "started")?.fields.confirmations;
      if (reported !== confirmations) {
        throw new BenchError(`the section's facilitator reports confirmations = ${String(reported)}, expected ${confirmations}`);
      }
      depths.push({ confirmations, facilitator, permit: [], selfTransfer: [], selfTransferSettle: [] });
    }
    for (const depth of depths) await depth.facilitator.waitForFullStock();

    progress(`confirmations: anvil mines a block every ${BLOCK_TIME_SECONDS} s from now`);
    await testClient.setIntervalMining({ interval: BLOCK_TIME_SECONDS });
    const clock: BlockClock = await startBlockClock({ rpcUrl: deployment.rpcUrl, blockTimeMs: BLOCK_TIME_SECONDS * 1000 });
    stoppers.push(clock.stop);

    const payerKey = deployment.accounts.payer.privateKey;
    const exactSamples: Samples = [];
    const settle = async (label: string, facilitatorUrl: string, prepared: PreparedPayment): Promise<number | undefined> => {
      const response = await postJson(`${facilitatorUrl}/settle`, {
        x402Version: 2,
        paymentPayload: prepared.paymentPayload,
        paymentRequirements: prepared.requirements,
      });
      if (booleanField(response.body, "success")) return response.ms;
      failures.push(`${label}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
      return undefined;
    };
    /** Runs one payment of the variant at `phase`; a timed round records its samples at index `round`. */
    type Variant = { label: string; run: (phase: number, round: number | undefined) => Promise<void> };
    const variants: Variant[] = [
      {
        label: "exact",
        run: async (phase, round) => {
          const prepared = await payer.prepare("exact", payerKey, `${exact.provider.url}/weather`);
          await clock.waitForPhase(phase);
          const ms = await settle("exact", exact.facilitator.url, prepared);
          if (round !== undefined) exactSamples[round] = ms;
        },
      },
      ...depths.flatMap((depth): Variant[] => {
        const url = `${depth.facilitator.provider.url}/weather`;
        const facilitatorUrl = depth.facilitator.facilitator.url;
        return [
          {
            label: `permit at ${depth.confirmations}`,
            run: async (phase, round) => {
              const prepared = await payer.prepare("permit", payerKey, url);
              await clock.waitForPhase(phase);
              const ms = await settle(`permit at ${depth.confirmations}`, facilitatorUrl, prepared);
              if (round !== undefined) depth.permit[round] = ms;
            },
          },
          {
            label: `self-transfer at ${depth.confirmations}`,
            run: async (phase, round) => {
              await clock.waitForPhase(phase);
              const startedAt = performance.now();
              const prepared = await payer.prepare("self-transfer", payerKey, url);
              const ms = await settle(`self-transfer at ${depth.confirmations}`, facilitatorUrl, prepared);
              if (round !== undefined) {
                depth.selfTransfer[round] = ms === undefined ? undefined : performance.now() - startedAt;
                depth.selfTransferSettle[round] = ms;
              }
            },
          },
        ];
      }),
    ];

    // One unrecorded round first, so no timed settle pays for a first connection or cold code.
    progress("confirmations: warm-up round");
    for (const variant of variants) await variant.run(0.5, undefined);
    for (let round = 0; round < runs; round++) {
      const phase = roundPhase(round);
      progress(`confirmations: round ${round + 1}/${runs} at ${Math.round(phase * 100)}% of the block interval`);
      // Rotated so no variant always runs first in a round.
      for (let index = 0; index < variants.length; index++) await variants[(index + round) % variants.length]?.run(phase, round);
    }
    const first = depths[0];
    const deepest = depths[depths.length - 1];
    const extraConfirmations = (deepest?.confirmations ?? 1) - (first?.confirmations ?? 1);
    return {
      blockTimeSeconds: BLOCK_TIME_SECONDS,
      observedBlockIntervalMs: clock.intervalsMs(),
      runs,
      exactSettleMs: summarizeRounds(exactSamples),
      ours: depths.map((depth) => ({
        confirmations: depth.confirmations,
        permitSettleMs: summarizeRounds(depth.permit),
        selfTransferMs: summarizeRounds(depth.selfTransfer),
        selfTransferSettleMs: summarizeRounds(depth.selfTransferSettle),
        permitOverExactMs: summarize(pairedDifferences(depth.permit, exactSamples)),
      })),
      perExtraConfirmationMs: summarize(
        extraConfirmations === 0 ? [] : pairedDifferences(deepest?.permit ?? [], first?.permit ?? []).map((difference) => difference / extraConfirmations),
      ),
      permitReceiptTimeoutMs: PERMIT_RECEIPT_TIMEOUT_MS,
      durationSeconds: (performance.now() - started) / 1000,
      failures,
    };
  } finally {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  }
}
