/**
 * The prover the finalize loop mints with (`[prover]`): the fixture adapter only under profile `local` on
 * 31337 (otherwise none: `no_prover`), a command, HTTP or snarkjs adapter under any profile. Opened before any
 * state, so circuit files that cannot serve stop the start here (ProverCircuitError).
 */
import type { Capabilities } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { Environment } from "../config/parseSecrets.js";
import type { ProverAdapter } from "../finalize/provers/proverAdapter.js";
import { selectProver } from "../finalize/provers/selectProver.js";

/** What {@link wireProver} reads. */
export type ProverParts = { config: FacilitatorConfig; capabilities: Capabilities; env: Environment };

/** The prover, or none; `prover.close` kills a proof still running. */
export type ProverWiring = { prover: ProverAdapter | undefined };

/** Opens the configured prover. */
export async function wireProver({ config, capabilities, env }: ProverParts): Promise<ProverWiring> {
  const prover = await selectProver({
    prover: config.prover,
    capabilities,
    profile: config.profile,
    chainId: config.network.chain_id,
    protocol: config.network.protocol,
    deciderUrl: config.network.decider_url,
    env,
  });
  return { prover };
}
