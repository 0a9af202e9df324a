/**
 * The `prover` probe: with `prover.kind = "snarkjs"`, the circuit files `start` would load, checked exactly as
 * `start` checks them (readable, a WebAssembly witness calculator and a BN254 Groth16 key of three public
 * inputs, and one thread's self-test: a witness of a true single-teleport statement of `network.protocol`).
 * A problem names the key (`prover.wasm`, `prover.zkey`). Other kinds get one line saying what proves.
 */
import type { FacilitatorConfig } from "../../config/index.js";
import { createSnarkjsProver } from "../../finalize/provers/createSnarkjsProver.js";
import { ProverCircuitError } from "../../finalize/provers/errors.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Checks the `[prover]` table's files (snarkjs) or notes the adapter (other kinds). */
export async function probeProver(config: FacilitatorConfig): Promise<CheckFinding[]> {
  const list = new FindingList("prover");
  const prover = config.prover;
  if (prover.kind !== "snarkjs") {
    list.ok(`kind ${prover.kind}${prover.kind === "fixture" ? " (only under profile local on chain 31337)" : ""}`);
    return list.findings;
  }
  try {
    const opened = await createSnarkjsProver({
      wasm: prover.wasm,
      zkey: prover.zkey,
      protocol: config.network.protocol,
      timeoutMs: prover.timeout_ms,
      concurrency: prover.concurrency,
    });
    await opened.close();
    list.ok(
      `kind snarkjs: ${prover.wasm} and ${prover.zkey} prove the ${config.network.protocol} single-teleport statement (witness of ${opened.witnessSize} signals); ${prover.concurrency} prover thread${prover.concurrency === 1 ? "" : "s"}`,
    );
  } catch (error) {
    if (!(error instanceof ProverCircuitError)) throw error;
    list.fail(error.shortMessage);
  }
  return list.findings;
}
