/**
 * Test builders for the HTTP layer: fake `AppDependencies` whose answers follow the contract of the real
 * core closely enough to test the HTTP mapping (profile gating, malformed bodies), and a server on a free
 * loopback port. Shipped in `src` so every test of the package can use them; nothing in the daemon imports them.
 */
import { type ChallengeOffer, type ClassifiedFacilitatorBody, PROFILE_UNSUPPORTED, type SettleResponse, type VerifyResponse } from "@svc/scheme";

import { capabilitiesOf } from "../../config/capabilities.js";
import { ProfileDisabledError } from "../../challenges/errors.js";
import { createLogger, type Logger } from "../../log/createLogger.js";
import type { WithdrawalWitness } from "../../operator/withdrawalWitness.js";
import type { AppDependencies } from "../appDependencies.js";
import { createApp, type CreateAppOptions } from "../createApp.js";
import { listenApp, type ListeningApp } from "../listenApp.js";

const READY_COMPONENTS = { rpc: { ready: true }, indexer: { ready: true }, journal: { ready: true }, stock: { ready: true } };

/** An admin token for tests, long enough to be redacted by the logger. */
export const TEST_HTTP_ADMIN_TOKEN = "http-test-admin-token-0123456789abcdef";

/** A burn transaction hash the fakes answer with. */
export const TEST_HTTP_BURN_TX: `0x${string}` = `0x${"ab".repeat(32)}`;

/** Overrides of {@link buildAppDependencies}: top-level fields, plus partial `daemon`, `listen` and `finalize` tables. */
export type AppDependenciesOverrides = Partial<Omit<AppDependencies, "config">> & {
  profile?: AppDependencies["config"]["profile"];
  daemon?: Partial<AppDependencies["config"]["daemon"]>;
  listen?: Partial<AppDependencies["config"]["listen"]>;
  providers?: AppDependencies["config"]["providers"];
  finalize?: Partial<AppDependencies["config"]["finalize"]>;
};

/** A JSON-lines logger that keeps its lines in memory and redacts the test admin token. */
export function buildMemoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger({ write: (line) => lines.push(line), secrets: [TEST_HTTP_ADMIN_TOKEN] }), lines };
}

/**
 * Fake dependencies for profile `local` with the spec's default limits. Under another profile
 * `issueChallenge` throws `ProfileDisabledError` and verify/settle answer `profile_unsupported`, as the core
 * does; a rejected body is answered with its reason code.
 */
export function buildAppDependencies(overrides: AppDependenciesOverrides = {}): AppDependencies {
  const { profile = "local", daemon, listen, providers, finalize, ...rest } = overrides;
  const network = "eip155:31337" as const;
  const { issuesOffers, acceptsPayments } = capabilitiesOf({ profile });
  return {
    config: {
      profile,
      providers,
      finalize: { min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 1, witnesses: "self" as const, ...finalize },
      listen: { host: "127.0.0.1", port: 0, trusted_proxies: undefined, ...listen },
      daemon: {
        finalize_interval_ms: 15_000,
        shutdown_grace_ms: 10_000,
        rate_limit_per_min: 120,
        max_open_challenges: 1000,
        challenge_per_key_per_min: 20,
        burn_address_pool_size: 16,
        burn_address_pool_max_size: 64,
        public_metrics: false,
        log_level: "info",
        ...daemon,
      },
    },
    adminToken: TEST_HTTP_ADMIN_TOKEN,
    logger: buildMemoryLogger().logger,
    supported: () => ({
      kinds: acceptsPayments ? [{ x402Version: 2, scheme: "svc-zerc20", network }] : [],
      extensions: [],
      signers: {},
    }),
    health: () => ({ status: "ok" }),
    readiness: async () => ({ ready: true, checkedAt: 0, components: READY_COMPONENTS }),
    issueChallenge: async (listPrice: bigint): Promise<ChallengeOffer> => {
      if (!issuesOffers) throw new ProfileDisabledError(profile);
      return {
        payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        amount: listPrice.toString(),
        token: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        chainId: 31337,
        challengeNonce: `0x${"cd".repeat(32)}`,
        expiresAt: 1_900_000_000,
      };
    },
    verify: async (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> => {
      if (!acceptsPayments) return { isValid: false, invalidReason: PROFILE_UNSUPPORTED };
      if (body.kind === "rejected") return { isValid: false, invalidReason: body.reason, invalidMessage: body.detail };
      return { isValid: true };
    },
    settle: async (body: ClassifiedFacilitatorBody): Promise<SettleResponse> => {
      if (!acceptsPayments) return { success: false, transaction: "", network, errorReason: PROFILE_UNSUPPORTED };
      if (body.kind === "rejected") return { success: false, transaction: "", network, errorReason: body.reason };
      return { success: true, transaction: TEST_HTTP_BURN_TX, network, extra: { phase: "accepted" } };
    },
    admin: {
      challenges: () => ({ open: 2, retainedExpired: 1, maxOpen: 1000 }),
      settlements: (state) =>
        [
          { challengeNonce: `0x${"01".repeat(32)}`, state: "accepted" as const },
          { challengeNonce: `0x${"02".repeat(32)}`, state: "late_burn" as const },
        ]
          .filter((entry) => state === undefined || entry.state === state)
          .map((entry) => ({
            ...entry,
            path: "self-transfer" as const,
            amount: "1000",
            burnTxHash: TEST_HTTP_BURN_TX,
          })),
      status: async () => ({
        profile,
        chainId: 31337,
        backlog: {
          intent: { count: 0, oldestAgeSeconds: null },
          accepted: { count: 1, oldestAgeSeconds: 30 },
          reorged: { count: 0, oldestAgeSeconds: null },
          finalized: { count: 0, oldestAgeSeconds: null },
          failed: { count: 0, oldestAgeSeconds: null },
          late_burn: { count: 1, oldestAgeSeconds: 90 },
        },
        openChallenges: 2,
        rpcEndpoints: [
          { endpoint: "rpc#0", origin: "http://127.0.0.1:8545", up: true, consecutiveFailures: 0, errors: 0, skips: 0, retryInMs: null, lastError: null },
        ],
        stock: {
          stocked: 16,
          deriving: 0,
          derived: 16,
          stopped: false,
          floor: 16,
          ceiling: 64,
          target: 16,
          offersPerSecond: 0,
          derivationsPerSecond: 11.5,
          lastsSeconds: null,
        },
        poseidon: { implementation: "native", path: "avx512-ifma" },
        relayer: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", balanceWei: "1000000000000000000", queueDepth: 0 },
        treasury: { address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", balanceWei: "0" },
      }),
      withdrawalWitness: async (challengeNonce) => (challengeNonce === TEST_WITHDRAWAL_WITNESS.challenge_nonce ? TEST_WITHDRAWAL_WITNESS : undefined),
    },
    ...rest,
  };
}

/** The one payment whose withdrawal witness the test dependencies serve. */
export const TEST_WITHDRAWAL_WITNESS: WithdrawalWitness = {
  protocol: "zerc20-v2",
  chain_id: 31337,
  token: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  verifier: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  challenge_nonce: `0x${"01".repeat(32)}`,
  state: "accepted",
  amount: "1000",
  burn_tx_hash: TEST_HTTP_BURN_TX,
  burn_block_number: "12",
  burn_address: "0x3034a16D0E8b774fC609A8ADcbE89Ed3C5bAD8c3",
  general_recipient: { chain_id: 31337, recipient: `0x${"00".repeat(12)}9fe46736679d2d9a65f0992f2272de9f3c7fa6e0`, tweak: `0x${"07".repeat(32)}` },
  recipient_hash: `0x01${"23".repeat(31)}`,
  secret: `0x${"5e".repeat(32)}`,
};

/** An app on a free loopback port with its base URL; `close()` stops it at once. */
export type TestServer = { url: string; listening: ListeningApp; close: () => Promise<void> };

/** Serves `createApp(buildAppDependencies(overrides))` on 127.0.0.1 with a free port. */
export async function startTestServer(overrides: AppDependenciesOverrides | AppDependencies = {}, options: CreateAppOptions = {}): Promise<TestServer> {
  const deps = "config" in overrides ? overrides : buildAppDependencies(overrides);
  const listening = await listenApp(createApp(deps, options), { host: "127.0.0.1", port: 0 });
  return { url: `http://${listening.address}`, listening, close: () => listening.close(0) };
}
