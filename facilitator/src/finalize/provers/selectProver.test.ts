import { decodeGroth16Proof } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import { FixtureProverRefusedError } from "../errors.js";
import { selectProver, type SelectProverParameters } from "./selectProver.js";
import { buildWithdrawProofInputs, FIXTURE_PROVER_PROGRAM } from "./testing/buildWithdrawProofInputs.js";

const local: Omit<SelectProverParameters, "prover"> = {
  capabilities: { fixtureProver: true },
  profile: "local",
  chainId: 31337,
  deciderUrl: "http://127.0.0.1:1",
  env: { PATH: process.env["PATH"] },
};
const limits = { timeout_ms: 30_000, concurrency: 1 };

describe("selectProver", () => {
  it("builds the fixture adapter where the profile grants it, and none elsewhere", () => {
    expect(selectProver({ ...local, prover: { kind: "fixture", ...limits } })).toMatchObject({
      proveSingle: expect.any(Function),
      close: expect.any(Function),
    });
    expect(selectProver({ ...local, capabilities: { fixtureProver: false }, profile: "production", prover: { kind: "fixture", ...limits } })).toBeUndefined();
  });

  it("still refuses the fixture adapter off chain 31337, as createFixtureProver does", () => {
    expect(() => selectProver({ ...local, chainId: 1, prover: { kind: "fixture", ...limits } })).toThrow(FixtureProverRefusedError);
  });

  it("builds the command adapter under any profile, running the configured program", async () => {
    const prover = selectProver({
      ...local,
      capabilities: { fixtureProver: false },
      profile: "testnet",
      prover: { kind: "command", command: [process.execPath, FIXTURE_PROVER_PROGRAM], ...limits },
    });
    const inputs = buildWithdrawProofInputs();
    const proof = await prover?.proveSingle(inputs);
    expect(proof && decodeGroth16Proof(proof).publicInputs[2]).toBe(inputs.value);
  });

  it("builds the HTTP adapter under any profile", () => {
    const prover = selectProver({
      ...local,
      capabilities: { fixtureProver: false },
      profile: undefined,
      prover: { kind: "http", url: "https://prover.example/prove", ...limits },
    });
    expect(prover).toMatchObject({ proveBatch: expect.any(Function), close: expect.any(Function) });
  });
});
