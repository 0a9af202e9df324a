/**
 * Reads the snarkjs adapter's circuit files (`prover.wasm`, `prover.zkey`) once, into shared memory every prover
 * thread reads without a copy, and checks what can be checked without running them: the witness calculator
 * is WebAssembly, and the proving key is a snarkjs Groth16 key over BN254 with the three public inputs the
 * single-teleport verifier takes. Each problem is a {@link ProverCircuitError} naming the key. Whether the two
 * files prove the statement at all is the prover thread's self-test (`snarkjsSelfTest.ts`).
 */
import { readFile } from "node:fs/promises";
import { BN254_FIELD_MODULUS } from "@svc/scheme";
import { ProverCircuitError } from "./errors.js";

/** BN254's base field: the `q` of every key over the curve the verifier's pairing runs on. */
const BN254_BASE_MODULUS = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;

/** snarkjs's protocol id of a Groth16 key (section 1 of a `.zkey`). */
const ZKEY_GROTH16 = 1;

/** Public inputs of the single-teleport statement: `[transferRoot, R, value − δ]`. */
export const SINGLE_TELEPORT_PUBLIC_INPUTS = 3;

/** What the Groth16 header of a proving key says. */
export type ZkeyHeader = {
  /** Signals of a witness of its circuit (the constant one included). */
  nVars: number;
  /** Public inputs. */
  nPublic: number;
  /** Size of its evaluation domain (a power of two above the constraint count). */
  domainSize: number;
};

/** Both files, in memory shared with the prover threads, and the key's header. */
export type CircuitFiles = {
  wasmPath: string;
  zkeyPath: string;
  wasm: Uint8Array;
  zkey: Uint8Array;
  zkeyHeader: ZkeyHeader;
};

/**
 * Reads and checks both files; throws {@link ProverCircuitError} naming `prover.wasm` or `prover.zkey`.
 *
 * @example
 * const files = await loadCircuitFiles({ wasm: config.prover.wasm, zkey: config.prover.zkey });
 */
export async function loadCircuitFiles({ wasm, zkey }: { wasm: string; zkey: string }): Promise<CircuitFiles> {
  const wasmBytes = await readShared("prover.wasm", wasm);
  if (!startsWith(wasmBytes, [0x00, 0x61, 0x73, 0x6d])) {
    throw new ProverCircuitError({ key: "prover.wasm", problem: `(${wasm}) is not WebAssembly: expected the witness calculator circom writes (.wasm)` });
  }
  const zkeyBytes = await readShared("prover.zkey", zkey);
  const zkeyHeader = readZkeyHeader(zkeyBytes, zkey);
  return { wasmPath: wasm, zkeyPath: zkey, wasm: wasmBytes, zkey: zkeyBytes, zkeyHeader };
}

async function readShared(key: string, path: string): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new ProverCircuitError({ key, problem: `(${path}) cannot be read (${systemErrorCode(cause) ?? "unknown error"})`, cause });
  }
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

/** Parses the sections of a `.zkey` (a snarkjs binary file: "zkey", version, section count, then typed sections). */
function readZkeyHeader(bytes: Uint8Array, path: string): ZkeyHeader {
  const refuse = (problem: string) => new ProverCircuitError({ key: "prover.zkey", problem: `(${path}) ${problem}` });
  const notAKey = () => refuse("is not a snarkjs proving key (.zkey)");
  if (!startsWith(bytes, [...Buffer.from("zkey")])) throw notAKey();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sections = new Map<number, { start: number; size: number }>();
  if (bytes.byteLength < 12) throw notAKey();
  const count = view.getUint32(8, true);
  let offset = 12;
  for (let index = 0; index < count; index++) {
    if (offset + 12 > bytes.byteLength) throw notAKey();
    const type = view.getUint32(offset, true);
    const size = Number(view.getBigUint64(offset + 4, true));
    if (offset + 12 + size > bytes.byteLength) throw notAKey();
    if (!sections.has(type)) sections.set(type, { start: offset + 12, size });
    offset += 12 + size;
  }
  const protocol = sections.get(1);
  const groth = sections.get(2);
  if (protocol === undefined || protocol.size < 4 || groth === undefined) throw notAKey();
  if (view.getUint32(protocol.start, true) !== ZKEY_GROTH16) throw refuse("is a proving key of another proof system, not Groth16");
  let at = groth.start;
  const end = groth.start + groth.size;
  const u32 = () => {
    if (at + 4 > end) throw notAKey();
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const field = () => {
    const n8 = u32();
    if (at + n8 > end) throw notAKey();
    let value = 0n;
    for (let index = n8 - 1; index >= 0; index--) value = (value << 8n) | BigInt(bytes[at + index] ?? 0);
    at += n8;
    return value;
  };
  const [q, r] = [field(), field()];
  if (q !== BN254_BASE_MODULUS || r !== BN254_FIELD_MODULUS) throw refuse("is not a key over BN254, the curve the verifier checks proofs on");
  const header = { nVars: u32(), nPublic: u32(), domainSize: u32() };
  if (header.nPublic !== SINGLE_TELEPORT_PUBLIC_INPUTS) {
    throw refuse(`is a key of ${header.nPublic} public inputs; the single-teleport verifier takes ${SINGLE_TELEPORT_PUBLIC_INPUTS}`);
  }
  return header;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
