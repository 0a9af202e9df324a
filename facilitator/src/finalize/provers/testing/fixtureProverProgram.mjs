// @ts-check
/**
 * A prover program for the command adapter's tests (never part of the daemon or its build): it reads the
 * witness JSON on stdin and prints a fixture proof of it (signed with the published fixture key, in the
 * published encodings) on stdout, like a real prover would print a real one. Flags make it misbehave:
 *
 *   --fail <code>            echo the witness to stderr, print a valid proof, then exit <code>
 *   --hang                   never answer
 *   --echo                   print the witness back instead of a proof (secret included), exit 0
 *   --other <field>          prove other public inputs: root, recipient_hash or value, plus one
 *   --truncate               print the proof without its last byte
 *   --flood                  print far more than any proof
 *   --pid-file <path>        write its pid there first
 *   --grandchild-pid-file <path>  start a child that never exits (and holds stdout), write its pid there
 *   --detach-grandchild      start that child in a process group of its own (out of the adapter's reach)
 *   --env-names-file <path>  write the names of its environment variables there (JSON)
 *   --gate <dir>             mark itself running in <dir>, record how many runs it saw at once, and wait
 *                            for <dir>/release before answering
 *
 * Plain JavaScript, because Node 20 runs no TypeScript; type-checked through JSDoc with the tests.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** @type {Map<string, string | true>} */
const flags = new Map();
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index++) {
  const name = argv[index] ?? "";
  const next = argv[index + 1];
  if (next !== undefined && !next.startsWith("--")) {
    flags.set(name, next);
    index++;
  } else flags.set(name, true);
}

/** @param {string} name */
function option(name) {
  const value = flags.get(name);
  return typeof value === "string" ? value : undefined;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @returns {Promise<string>} */
async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const pidFile = option("--pid-file");
if (pidFile) writeFileSync(pidFile, String(process.pid));
const envNamesFile = option("--env-names-file");
if (envNamesFile) writeFileSync(envNamesFile, JSON.stringify(Object.keys(process.env).sort()));
const grandchildPidFile = option("--grandchild-pid-file");
if (grandchildPidFile) {
  const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "inherit", "inherit"],
    detached: flags.has("--detach-grandchild"),
  });
  grandchild.unref();
  writeFileSync(grandchildPidFile, String(grandchild.pid));
}
if (flags.has("--hang")) {
  setInterval(() => {}, 1000);
} else {
  await answer(await readStdin());
}

/** @param {string} text */
async function answer(text) {
  if (flags.has("--echo")) {
    process.stdout.write(text);
    return;
  }
  if (flags.has("--flood")) {
    process.stdout.write(`0x${"ab".repeat(100_000)}\n`);
    return;
  }
  const gate = option("--gate");
  if (gate) await waitAtGate(gate);
  const proof = await prove(JSON.parse(text));
  const failCode = option("--fail");
  if (failCode !== undefined) {
    process.stderr.write(text);
    process.stdout.write(`${proof}\n`);
    process.exitCode = Number(failCode);
    return;
  }
  process.stdout.write(`${flags.has("--truncate") ? proof.slice(0, -2) : proof}\n`);
}

/**
 * @param {any} witness the witness JSON (see proverWitness.ts)
 * @returns {Promise<string>}
 */
async function prove(witness) {
  const { FIXTURE_PROVER_PRIVATE_KEY, signFixtureDeciderWithdrawProof, signFixtureGroth16Proof } = await import("@svc/scheme");
  const other = option("--other");
  /** @param {string} field */
  const read = (field) => BigInt(witness[field]) + (other === field ? 1n : 0n);
  const chainId = BigInt(witness.chain_id);
  const [root, recipientHash, value] = [read("root"), read("recipient_hash"), read("value")];
  if (witness.circuit === "single") {
    return signFixtureGroth16Proof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId, publicInputs: [root, recipientHash, value] });
  }
  /** @type {bigint[]} */
  const leaves = witness.transfers.map((/** @type {{ leaf_index: number }} */ transfer) => BigInt(transfer.leaf_index));
  let lastLeafPosition = 0n;
  for (const leaf of leaves) if (leaf > lastLeafPosition) lastLeafPosition = leaf;
  return signFixtureDeciderWithdrawProof({
    privateKey: FIXTURE_PROVER_PRIVATE_KEY,
    chainId,
    circuit: "withdraw_local",
    proof: { steps: BigInt(leaves.length), root, recipientHash, lastLeafPosition, totalValue: value },
  });
}

/** @param {string} dir */
async function waitAtGate(dir) {
  const marker = join(dir, `running-${process.pid}`);
  writeFileSync(marker, "");
  let seen = 0;
  for (;;) {
    seen = Math.max(seen, readdirSync(dir).filter((name) => name.startsWith("running-")).length);
    writeFileSync(join(dir, `seen-${process.pid}`), String(seen));
    if (existsSync(join(dir, "release"))) break;
    await sleep(10);
  }
  rmSync(marker);
}
