#!/usr/bin/env node
/**
 * `make stack`: starts the local zERC20 stack in the foreground on fixed local ports, under the protocol
 * version `STACK_PROTOCOL` names (`v1` or `v2`, default `v2`) and with the single-teleport proofs `STACK_PROVER`
 * names (`fixture`, default, or `groth16`: real proofs, the facilitator configured to make them with snarkjs),
 * prints where each service listens and how to start the facilitator on it, and stops every child on Ctrl-C or
 * SIGTERM. A taken port ends it with exit code 2 and a line naming the port and the variable that moves it.
 */
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type { ProtocolVersion } from "@svc/scheme";
import type { SingleTeleportVerifierKind } from "../deploy/deployContracts.js";
import { FACILITATOR_CLI } from "../processes/startFacilitatorProcess.js";
import { describeTakenPort, findTakenPorts, type StackPort, type TakenPort, takenAfterCheck } from "../stack/checkPortsFree.js";
import { type StackService, StackPortInUseError } from "../stack/errors.js";
import { renderNextStep } from "../stack/nextStep.js";
import { InvalidStackProtocolError, parseStackProtocol } from "../stack/parseStackProtocol.js";
import { InvalidStackProverError, parseStackProver } from "../stack/parseStackProver.js";
import { startStack, type StartStackOptions } from "../stack/startStack.js";

const dir = resolve(process.env.STACK_DIR ?? ".stack");
const integerEnv = (name: string, fallback: number, max: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    process.stderr.write(`${name} must be an integer from 0 to ${max}\n`);
    process.exit(2);
  }
  return value;
};
const port = (name: string, fallback: number): number => integerEnv(name, fallback, 65_535);
const protocolEnv = (): ProtocolVersion => {
  try {
    return parseStackProtocol(process.env.STACK_PROTOCOL);
  } catch (error) {
    if (!(error instanceof InvalidStackProtocolError)) throw error;
    process.stderr.write(`${error.shortMessage}\n`);
    process.exit(2);
  }
};

const proverEnv = (): SingleTeleportVerifierKind => {
  try {
    return parseStackProver(process.env.STACK_PROVER);
  } catch (error) {
    if (!(error instanceof InvalidStackProverError)) throw error;
    process.stderr.write(`${error.shortMessage}\n`);
    process.exit(2);
  }
};

const ports = {
  anvil: { service: "anvil", variable: "STACK_ANVIL_PORT", port: port("STACK_ANVIL_PORT", 8545) },
  indexer: { service: "fixture indexer", variable: "STACK_INDEXER_PORT", port: port("STACK_INDEXER_PORT", 4040) },
  decider: { service: "fixture decider", variable: "STACK_DECIDER_PORT", port: port("STACK_DECIDER_PORT", 4041) },
  // The stack itself never listens here, but the facilitator the user starts next does: better told now.
  facilitator: { service: "facilitator", variable: "STACK_FACILITATOR_PORT", port: port("STACK_FACILITATOR_PORT", 4032) },
} satisfies Record<StackService | "facilitator", StackPort>;
const options: StartStackOptions = {
  dir,
  protocol: protocolEnv(),
  decimals: integerEnv("STACK_TOKEN_DECIMALS", 18, 36),
  anvilPort: ports.anvil.port,
  indexerPort: ports.indexer.port,
  deciderPort: ports.decider.port,
  facilitatorPort: ports.facilitator.port,
  rootIntervalMs: integerEnv("STACK_ROOT_INTERVAL_MS", 500, 600_000),
  singleTeleportVerifier: proverEnv(),
  // The local stack records payment history, so `svc-agent history` and the TUI's `h` show payments at once.
  paymentHistory: true,
  onError: (error) => process.stderr.write(`stack: ${error instanceof Error ? error.message : String(error)}\n`),
};

// A taken port is the user's to fix, not a crash: one line each, no stack trace, exit code 2 like other usage problems.
const exitOnTakenPorts = (taken: readonly TakenPort[]): never => {
  for (const entry of taken) process.stderr.write(`${describeTakenPort(entry)}\n`);
  process.exit(2);
};
const taken = await findTakenPorts(Object.values(ports));
if (taken.length > 0) exitOnTakenPorts(taken);

const started = performance.now();
// startStack has stopped what it started by the time it throws; a port taken since the check is reported the same way.
const stack = await startStack(options).catch(async (error: unknown) => {
  if (!(error instanceof StackPortInUseError)) throw error;
  return exitOnTakenPorts([await takenAfterCheck(ports[error.service], Object.values(ports))]);
});
const { deployment, files } = stack;
const rows: [string, string][] = [
  ["protocol", deployment.protocol],
  [`anvil (chain ${deployment.chainId})`, deployment.rpcUrl],
  ["fixture indexer", deployment.indexerUrl],
  ["fixture decider", deployment.deciderUrl],
  ["token", `${deployment.token} (${deployment.decimals} decimals)`],
  ["verifier", deployment.verifier],
  ["permit burner", deployment.permitBurner],
  [
    "single teleports",
    deployment.singleTeleportCircuit === undefined
      ? "fixture proofs (STACK_PROVER=groth16 for real ones)"
      : `real Groth16 proofs, made by the facilitator with snarkjs (${deployment.singleTeleportCircuit.zkeyPath})`,
  ],
  ["deployment", files.deployment],
  ["facilitator config", `${files.facilitatorToml} (secrets in ${files.facilitatorEnv})`],
];
const lines = [
  `local zERC20 stack ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  ...rows.map(([label, value]) => `  ${label.padEnd(20)} ${value}`),
  "Ctrl-C stops everything.",
  ...renderNextStep({
    cwd: process.cwd(),
    facilitatorCli: FACILITATOR_CLI,
    facilitatorToml: files.facilitatorToml,
    facilitatorEnv: files.facilitatorEnv,
    facilitatorPort: ports.facilitator.port,
  }),
];
process.stdout.write(`${lines.join("\n")}\n`);

let stopping = false;
const shutdown = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: stopping the stack\n`);
  void stack.stop().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
