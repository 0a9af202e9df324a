import { buildSingleTeleportCircuit, type SingleTeleportCircuit } from "@svc/anvil-fixtures";
import { decodeGroth16Proof } from "@svc/scheme";
import { beforeAll, describe, expect, it } from "vitest";
import { FixtureProverRefusedError } from "../errors.js";
import { ProverCircuitError, ProverUnsupportedError } from "./errors.js";
import { selectProver, type SelectProverParameters } from "./selectProver.js";
import { buildWithdrawProofInputs, FIXTURE_PROVER_PROGRAM } from "./testing/buildWithdrawProofInputs.js";

const local: Omit<SelectProverParameters, "prover"> = {
  capabilities: { fixtureProver: true },
  profile: "local",
  chainId: 31337,
  protocol: "zerc20-v2",
  deciderUrl: "http://127.0.0.1:1",
  env: { PATH: process.env["PATH"] },
};
const limits = { timeout_ms: 30_000, concurrency: 1 };

let circuit: SingleTeleportCircuit;
beforeAll(async () => {
  circuit = await buildSingleTeleportCircuit({ protocol: "zerc20-v2" });
}, 600_000);

describe("selectProver", () => {
  it("builds the fixture adapter where the profile grants it, and none elsewhere", async () => {
    expect(await selectProver({ ...local, prover: { kind: "fixture", ...limits } })).toMatchObject({
      proveSingle: expect.any(Function),
      close: expect.any(Function),
    });
    expect(
      await selectProver({ ...local, capabilities: { fixtureProver: false }, profile: "production", prover: { kind: "fixture", ...limits } }),
    ).toBeUndefined();
  });

  it("still refuses the fixture adapter off chain 31337, as createFixtureProver does", async () => {
    await expect(selectProver({ ...local, chainId: 1, prover: { kind: "fixture", ...limits } })).rejects.toThrow(FixtureProverRefusedError);
  });

  it("builds the command adapter under any profile, running the configured program", async () => {
    const prover = await selectProver({
      ...local,
      capabilities: { fixtureProver: false },
      profile: "testnet",
      prover: { kind: "command", command: [process.execPath, FIXTURE_PROVER_PROGRAM], ...limits },
    });
    const inputs = buildWithdrawProofInputs();
    const proof = await prover?.proveSingle(inputs);
    expect(proof && decodeGroth16Proof(proof).publicInputs[2]).toBe(inputs.value);
  });

  it("builds the HTTP adapter under any profile", async () => {
    const prover = await selectProver({
      ...local,
      capabilities: { fixtureProver: false },
      profile: undefined,
      prover: { kind: "http", url: "https://prover.example/prove", ...limits },
    });
    expect(prover).toMatchObject({ proveBatch: expect.any(Function), close: expect.any(Function) });
  });

  it("builds the snarkjs adapter under any profile; outside profile local its batch path is refused, never a fixture proof", async () => {
    const prover = await selectProver({
      ...local,
      capabilities: { fixtureProver: false },
      profile: "production",
      chainId: 8453,
      prover: { kind: "snarkjs", wasm: circuit.wasmPath, zkey: circuit.zkeyPath, ...limits },
    });
    try {
      await expect(prover?.proveBatch(buildWithdrawProofInputs())).rejects.toThrow(ProverUnsupportedError);
    } finally {
      await prover?.close();
    }
  });

  it("gives the snarkjs adapter the fixture adapter's batch path under profile local (which refuses this false statement)", async () => {
    const prover = await selectProver({ ...local, prover: { kind: "snarkjs", wasm: circuit.wasmPath, zkey: circuit.zkeyPath, ...limits } });
    try {
      await expect(prover?.proveBatch(buildWithdrawProofInputs())).rejects.toMatchObject({ name: "FalseWithdrawStatementError" });
    } finally {
      await prover?.close();
    }
  });

  it("refuses snarkjs circuit files it cannot use, naming the key", async () => {
    await expect(selectProver({ ...local, prover: { kind: "snarkjs", wasm: circuit.zkeyPath, zkey: circuit.zkeyPath, ...limits } })).rejects.toThrow(
      ProverCircuitError,
    );
  });
});
