// @ts-check
/**
 * A real prover program for the command adapter's tests (never part of the daemon or its build): it reads the
 * witness JSON (`proverWitness.ts`) on stdin, maps it to the single-teleport circuit's inputs with the scheme's
 * `singleTeleportCircuitInput` (the mapping every prover of this product shares), proves it with snarkjs and
 * the circuit files named on its command line, and prints the 352-byte proof as `0x` hex, as an operator's
 * external prover would.
 *
 *   node snarkjsProverProgram.mjs --wasm <circuit.wasm> --zkey <circuit.zkey>
 *
 * Exit 0 with the proof; 65 when the circuit refuses the witness (a constraint fails: the command adapter's
 * `prover_witness_rejected`); 64 for a witness it cannot read or a batch (it proves single transfers only);
 * 1 for anything else. It writes nothing else, anywhere: the witness carries the burn secret.
 *
 * Plain JavaScript, because Node 20 runs no TypeScript; type-checked through JSDoc with the tests.
 */
import { encodeGroth16Proof, groth16ProofFromSnarkjs, singleTeleportCircuitInput } from "@svc/scheme";
import * as snarkjs from "snarkjs";

// The witness calculator prints a failed constraint's location to the console: nothing but the proof goes out.
for (const name of /** @type {const} */ (["log", "info", "warn", "error", "debug"])) console[name] = () => {};

const EXIT_USAGE = 64;
const EXIT_WITNESS_REJECTED = 65;

/** @param {string} name */
function option(name) {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** @returns {Promise<string>} */
async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * @param {string} text the witness JSON
 * @returns {import("@svc/scheme").SingleTeleportCircuitInput | undefined}
 */
function circuitInput(text) {
  try {
    const witness = JSON.parse(text);
    if (witness.circuit !== "single" || witness.transfers.length !== 1) return undefined;
    const [transfer] = witness.transfers;
    return singleTeleportCircuitInput({
      root: BigInt(witness.root),
      recipientHash: BigInt(witness.recipient_hash),
      secret: BigInt(witness.secret),
      transfer: {
        from: transfer.from,
        value: BigInt(transfer.value),
        leafIndex: BigInt(transfer.leaf_index),
        siblings: transfer.siblings.map((/** @type {string} */ sibling) => BigInt(sibling)),
      },
    });
  } catch {
    return undefined;
  }
}

const wasm = option("--wasm");
const zkey = option("--zkey");
const input = circuitInput(await readStdin());
if (wasm === undefined || zkey === undefined || input === undefined) {
  process.exitCode = EXIT_USAGE;
} else {
  try {
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(input, wasm, zkey, undefined, undefined, { singleThread: true });
    process.stdout.write(`${encodeGroth16Proof(groth16ProofFromSnarkjs(proof, publicSignals))}\n`);
  } catch (error) {
    process.exitCode = error instanceof Error && error.message.includes("Assert Failed") ? EXIT_WITNESS_REJECTED : 1;
  }
}
