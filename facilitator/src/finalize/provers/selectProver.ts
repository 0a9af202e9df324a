/**
 * Builds the prover adapter `[prover]` names. The fixture adapter exists only where the profile grants it
 * (profile `local`, which the startup rules tie to chain 31337); elsewhere the fixture kind means no prover,
 * and the finalize loop waits with `no_prover`. A command, HTTP or snarkjs adapter is built under any profile;
 * whether the loop may use it to change chain state is the profile's call (`capabilities.finalizes`), not the
 * adapter's. The snarkjs adapter proves the single path; its batch path is the fixture adapter's where the
 * profile grants that one, and refused elsewhere (no fixture proof is ever made outside profile `local`).
 */
import type { ProtocolVersion } from "@svc/scheme";
import type { Capabilities } from "../../config/capabilities.js";
import type { Environment } from "../../config/parseSecrets.js";
import type { Profile, ProverConfig } from "../../config/facilitatorConfigSchema.js";
import { createFixtureProver } from "../createFixtureProver.js";
import { createCommandProver } from "./createCommandProver.js";
import { createHttpProver } from "./createHttpProver.js";
import { createSnarkjsProver } from "./createSnarkjsProver.js";
import type { ProverAdapter } from "./proverAdapter.js";

/** What {@link selectProver} reads: the `[prover]` table and the deployment it proves for. */
export type SelectProverParameters = {
  prover: ProverConfig;
  capabilities: Pick<Capabilities, "fixtureProver">;
  profile: Profile | undefined;
  /** `network.chain_id`. */
  chainId: number;
  /** `network.protocol`: the statement a snarkjs circuit must prove. */
  protocol: ProtocolVersion;
  /** `network.decider_url`: the fixture adapter's batch path. */
  deciderUrl: string;
  /** The daemon's environment; a command prover inherits only `PATH` and a few like it. */
  env: Environment;
};

/**
 * The configured prover adapter, or `undefined` when the fixture kind is configured where it may not run;
 * throws `ProverCircuitError` when the snarkjs circuit files cannot serve.
 *
 * @example
 * const prover = await selectProver({ prover: config.prover, capabilities, profile: config.profile, chainId, protocol, deciderUrl, env: process.env });
 */
export async function selectProver(parameters: SelectProverParameters): Promise<ProverAdapter | undefined> {
  const { prover, chainId } = parameters;
  switch (prover.kind) {
    case "fixture":
      if (!parameters.capabilities.fixtureProver) return undefined;
      return { ...createFixtureProver({ profile: parameters.profile, chainId, deciderUrl: parameters.deciderUrl }), close: async () => {} };
    case "command":
      return createCommandProver({ command: prover.command, chainId, timeoutMs: prover.timeout_ms, concurrency: prover.concurrency, env: parameters.env });
    case "http":
      return createHttpProver({ url: prover.url, chainId, timeoutMs: prover.timeout_ms, concurrency: prover.concurrency });
    case "snarkjs": {
      const fixture = parameters.capabilities.fixtureProver
        ? createFixtureProver({ profile: parameters.profile, chainId, deciderUrl: parameters.deciderUrl })
        : undefined;
      return createSnarkjsProver({
        wasm: prover.wasm,
        zkey: prover.zkey,
        protocol: parameters.protocol,
        timeoutMs: prover.timeout_ms,
        concurrency: prover.concurrency,
        batch: fixture?.proveBatch,
      });
    }
  }
}
