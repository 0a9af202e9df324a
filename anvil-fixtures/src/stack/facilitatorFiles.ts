/**
 * The ready-to-run facilitator configuration for the local stack: `facilitator.toml` (profile `local`, the
 * deployment's protocol version and every address, short local intervals) and `facilitator.env` (dev keys and a
 * fresh admin token).
 */
import { randomBytes } from "node:crypto";
import type { ProtocolVersion } from "@svc/scheme";
import type { Address, Hex } from "viem";

/**
 * The journal file of a chain with genesis block `genesisHash`: the daemon refuses a journal written on another
 * chain (`ChainIdentityMismatchError`), and every `make stack` is a new chain.
 */
export function journalFileOf(genesisHash: Hex): string {
  return `journal-${genesisHash.slice(2, 14).toLowerCase()}.jsonl`;
}

/** The payment history file of a chain: like the journal, a new chain starts a new history. */
export function historyFileOf(genesisHash: Hex): string {
  return `payment-history-${genesisHash.slice(2, 14).toLowerCase()}.jsonl`;
}

/** What the facilitator files are rendered from. */
export type FacilitatorFilesInput = {
  rpcUrl: string;
  indexerUrl: string;
  deciderUrl: string;
  chainId: number;
  /** The zERC20 version the deployed token and verifier implement. */
  protocol: ProtocolVersion;
  token: Address;
  verifier: Address;
  hub: Address;
  /** The block the token was deployed in (decimal): where the facilitator's transfer-tree follower starts. */
  deployBlockNumber?: string | undefined;
  permitBurner: Address;
  treasury: Address;
  feeRecipient: Address;
  /**
   * The settlement journal's file, relative to the config's folder: named after the chain (see
   * {@link journalFileOf}) so a new chain starts a new journal and the old chain's stays as it was.
   */
  journal: string;
  treasuryKey: Hex;
  relayerKey: Hex;
  listenPort: number;
  /**
   * Payment history on: the history file (absolute, so the env file works from any folder) and the one payer
   * wallet that may log in to read it (the dev `payer`). Off when absent.
   */
  paymentHistory?: { path: string; payerAddress: Address } | undefined;
  /** The circuit files of a stack deployed with real single-teleport proofs: the facilitator proves with them (snarkjs). */
  singleTeleportCircuit?: { wasmPath: string; zkeyPath: string } | undefined;
};

/**
 * `facilitator.toml`: custodial fee mode (treasury = the dev treasury key's address, 1% charged to the
 * payer) and a 1 s finalize interval so a local payment finalizes in seconds. The journal path is relative
 * to the config file's folder. Under `zerc20-v1` the permit burner is left out: a v1 token has no EIP-2612
 * permit, so the gasless path cannot work there. A stack deployed with real single-teleport proofs gets
 * `[prover] kind = "snarkjs"` with its circuit files; otherwise the fixture prover is the default.
 */
export function renderFacilitatorToml(input: FacilitatorFilesInput): string {
  const permitBurner =
    input.protocol === "zerc20-v1"
      ? "# permit_burner is left out: a zerc20-v1 token has no EIP-2612 permit, so only self-transfer payments work."
      : `permit_burner = "${input.permitBurner}"`;
  return `# Local stack facilitator configuration (written by anvil-fixtures; regenerated on every start).
profile = "local"

[network]
rpc_url = "${input.rpcUrl}"
indexer_url = "${input.indexerUrl}"
decider_url = "${input.deciderUrl}"
chain_id = ${input.chainId}
protocol = "${input.protocol}"
token = "${input.token}"
verifier = "${input.verifier}"
hub = "${input.hub}"
${input.deployBlockNumber === undefined ? "" : `deploy_block = ${input.deployBlockNumber}\n`}
[listen]
host = "127.0.0.1"
port = ${input.listenPort}

[settlement]
treasury = "${input.treasury}"
${permitBurner}
journal = "${input.journal}"
challenge_ttl_seconds = 300
expired_challenge_retention_seconds = 3600

[fee]
bps = 100
min_per_payment = "0"
charge_to = "payer"
recipient = "${input.feeRecipient}"

[daemon]
finalize_interval_ms = 1000
shutdown_grace_ms = 5000
# Rate limits are off on the local stack: tests and benchmarks drive many requests from one loopback key.
rate_limit_per_min = 0
max_open_challenges = 1000
challenge_per_key_per_min = 0
# A small pool: each pre-derived burn address costs about a second of CPU at start.
burn_address_pool_size = 4
${renderProverTable(input.singleTeleportCircuit)}`;
}

/** The `[prover]` table: none (the fixture prover) on a fixture stack, snarkjs with the circuit files on a groth16 one. */
function renderProverTable(circuit: FacilitatorFilesInput["singleTeleportCircuit"]): string {
  if (circuit === undefined) return "";
  return `
[prover]
# The stack verifies real Groth16 single-teleport proofs: proved here in worker threads (seconds of CPU each);
# payments of several transfers go through the fixture batch path and the stack's decider.
kind = "snarkjs"
wasm = ${JSON.stringify(circuit.wasmPath)}
zkey = ${JSON.stringify(circuit.zkeyPath)}
`;
}

/**
 * `facilitator.env`: the dev keys as the facilitator's secrets, plus a fresh random admin token; with
 * `paymentHistory`, the history variables too (a fresh identity secret, the dev payer as the payer wallet).
 */
export function renderFacilitatorEnv(input: FacilitatorFilesInput): string {
  const history =
    input.paymentHistory === undefined
      ? []
      : [
          "# Payment history: the payer's payments (`svc-agent history`, `h` in the TUI) for the dev payer wallet.",
          `PAYMENT_HISTORY_PATH=${input.paymentHistory.path}`,
          `HISTORY_IDENTITY_SECRET=${randomBytes(32).toString("hex")}`,
          "HISTORY_PAYER_TENANT=local-payer",
          "HISTORY_PAYER_ACTOR=payer",
          "HISTORY_PROVIDER_TENANT=local-provider",
          "HISTORY_PROVIDER_ACTOR=provider",
          `HISTORY_PAYER_ADDRESS=${input.paymentHistory.payerAddress}`,
        ];
  return [
    "# Local stack secrets: anvil's public dev keys and a random admin token. Never use outside the local stack.",
    `SVC_TREASURY_PK=${input.treasuryKey}`,
    `SVC_RELAYER_PK=${input.relayerKey}`,
    `SVC_ADMIN_TOKEN=${randomBytes(32).toString("hex")}`,
    ...history,
    "",
  ].join("\n");
}
