/**
 * The local world's real single-teleport prover: our circuit (`circuits/singleTeleport.circom`, written from
 * the published statement) compiled with circom2 (WebAssembly), a Groth16 proving key from the committed
 * phase-1 file, and the Solidity verifier snarkjs exports for that key, compiled with solc-js. Everything is
 * built once per change of what it depends on and cached under `.cache/circuits/<key>/` like the compiled
 * contracts; parallel test workers wait on one lock instead of building twice.
 *
 * The proving key comes from phase 2 without a contribution: deterministic (a fresh clone builds the same
 * key) and, like everything in the local world, not a secure setup.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { access, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { ProtocolVersion } from "@svc/scheme";
import * as snarkjs from "snarkjs";
import { z } from "zod";
import { withArtifactCacheLock, type ContractArtifact } from "../compile/artifactCache.js";
import { compileContracts, REPO_ROOT } from "../compile/compileContracts.js";
import { CircuitBuildError, PhaseOneFileError } from "./errors.js";

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** The circuit sources: the shared templates and one main file per protocol version. */
export const CIRCUITS_DIR: string = join(REPO_ROOT, "anvil-fixtures", "circuits");

/**
 * The phase-1 powers of tau (BN254, 2^14 constraints), ours, made once by `npm run circuits:phase1 -w
 * anvil-fixtures` (about 8 minutes): deterministic, so a regeneration reproduces this file byte for byte.
 */
export const PHASE_ONE_PATH: string = join(CIRCUITS_DIR, "pot14.ptau");

/** sha256 of {@link PHASE_ONE_PATH}: checked before use, so a truncated or pointer file fails by name. */
export const PHASE_ONE_SHA256 = "616f1d2e79313041201f36cb46b804b98f098da280097c5e8107b40585bfcc0c";

/** Where built circuits go. */
export const DEFAULT_CIRCUIT_CACHE_DIR: string = join(REPO_ROOT, ".cache", "circuits");

/** Height of the transfer tree the circuit proves a path in (both versions). */
export const SINGLE_TELEPORT_TREE_HEIGHT = 40;

const MAIN_FILES: Record<ProtocolVersion, string> = {
  "zerc20-v1": "singleTeleportV1.circom",
  "zerc20-v2": "singleTeleportV2.circom",
};

/** What a built circuit offers: the files a prover reads and the verifier a chain runs. */
export type SingleTeleportCircuit = {
  protocol: ProtocolVersion;
  /** The witness calculator circom2 emits. */
  wasmPath: string;
  /** The Groth16 proving key. */
  zkeyPath: string;
  /** The Groth16 verification key (snarkjs JSON). */
  verificationKey: Record<string, unknown>;
  /** The exported Solidity verifier, compiled: `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[3])`. */
  verifier: ContractArtifact;
  /** Whether everything came from the cache. */
  fromCache: boolean;
};

/** Options of {@link buildSingleTeleportCircuit}. */
export type BuildSingleTeleportCircuitParameters = {
  protocol: ProtocolVersion;
  /** Defaults to {@link DEFAULT_CIRCUIT_CACHE_DIR}. */
  cacheDir?: string | undefined;
};

const manifestSchema = z.object({ cacheKey: z.string(), verificationKey: z.record(z.string(), z.unknown()) });

/**
 * Builds (or reads from the cache) the single-teleport circuit of `protocol`.
 * @example
 * const circuit = await buildSingleTeleportCircuit({ protocol: "zerc20-v2" });
 * await snarkjs.groth16.fullProve(input, circuit.wasmPath, circuit.zkeyPath);
 */
export async function buildSingleTeleportCircuit(parameters: BuildSingleTeleportCircuitParameters): Promise<SingleTeleportCircuit> {
  const cacheDir = parameters.cacheDir ?? DEFAULT_CIRCUIT_CACHE_DIR;
  const main = MAIN_FILES[parameters.protocol];
  const cacheKey = await circuitCacheKey(main);
  const dir = join(cacheDir, cacheKey);
  const paths = {
    wasmPath: join(dir, main.replace(/\.circom$/, "_js"), main.replace(/\.circom$/, ".wasm")),
    zkeyPath: join(dir, "singleTeleport.zkey"),
    manifest: join(dir, "manifest.json"),
  };
  const finish = async (fromCache: boolean): Promise<SingleTeleportCircuit> => {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(paths.manifest, "utf8")));
    // The verifier is compiled next to the circuit, under the same key: a changed circuit recompiles it.
    const { artifacts } = await compileContracts({ contractDirs: [join(dir, "verifier")], cacheDir: join(dir, "contracts") });
    const verifier = artifacts.Groth16Verifier;
    if (verifier === undefined) throw new CircuitBuildError(main, "the exported verifier has no Groth16Verifier contract");
    return {
      protocol: parameters.protocol,
      wasmPath: paths.wasmPath,
      zkeyPath: paths.zkeyPath,
      verificationKey: manifest.verificationKey,
      verifier,
      fromCache,
    };
  };
  if (await exists(paths.manifest)) return finish(true);
  return withArtifactCacheLock(cacheDir, cacheKey, async () => {
    if (await exists(paths.manifest)) return finish(true);
    await build(main, dir, cacheKey, paths);
    return finish(false);
  });
}

async function build(main: string, dir: string, cacheKey: string, paths: { zkeyPath: string; manifest: string }): Promise<void> {
  await assertPhaseOneFile();
  // Built in a sibling folder and renamed into place, so a crash never leaves a half-built key behind.
  const staging = `${dir}.building`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(join(staging, "verifier"), { recursive: true });
  const circom = require.resolve("circom2/cli.js");
  const libraries = dirname(packageRoot("circomlib"));
  try {
    // circom2 runs under WASI and sees files through the working folder and its parents: paths above it
    // (`../node_modules`) do not resolve includes, so it runs from the repository root.
    await run(process.execPath, [circom, join(CIRCUITS_DIR, main), "--r1cs", "--wasm", "--O2", "-l", libraries, "-o", staging], {
      cwd: REPO_ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    throw new CircuitBuildError(main, "circom2 failed", error);
  }
  const r1cs = join(staging, main.replace(/\.circom$/, ".r1cs"));
  const zkey = join(staging, "singleTeleport.zkey");
  await snarkjs.zKey.newZKey(r1cs, PHASE_ONE_PATH, zkey);
  const verificationKey = (await snarkjs.zKey.exportVerificationKey(zkey)) as Record<string, unknown>;
  const template = readFileSync(join(packageRoot("snarkjs"), "templates", "verifier_groth16.sol.ejs"), "utf8");
  const solidity = await snarkjs.zKey.exportSolidityVerifier(zkey, { groth16: template });
  await writeFile(join(staging, "verifier", "Groth16Verifier.sol"), solidity);
  await writeFile(join(staging, "manifest.json"), JSON.stringify({ cacheKey, verificationKey }));
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  if (!(await exists(paths.manifest)) || !(await exists(paths.zkeyPath))) throw new CircuitBuildError(main, "the build left no proving key");
}

/** The key of everything a build depends on: the sources, the phase-1 file and the tools' versions. */
async function circuitCacheKey(main: string): Promise<string> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ main, phaseOne: PHASE_ONE_SHA256, circom2: version("circom2"), circomlib: version("circomlib"), snarkjs: version("snarkjs") }));
  for (const source of ["singleTeleport.circom", main]) hash.update(`\0${source}\0${await readFile(join(CIRCUITS_DIR, source), "utf8")}`);
  return hash.digest("hex").slice(0, 32);
}

async function assertPhaseOneFile(): Promise<void> {
  const bytes = await readFile(PHASE_ONE_PATH).catch((error: unknown) => {
    throw new PhaseOneFileError(PHASE_ONE_PATH, "cannot be read", error);
  });
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== PHASE_ONE_SHA256) throw new PhaseOneFileError(PHASE_ONE_PATH, `has sha256 ${digest}, expected ${PHASE_ONE_SHA256}`);
}

/** A package's folder: the nearest folder above its entry point that holds its package.json (snarkjs exports no `./package.json`). */
function packageRoot(packageName: string): string {
  try {
    return dirname(require.resolve(`${packageName}/package.json`));
  } catch {
    let dir = dirname(require.resolve(packageName));
    while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
    return dir;
  }
}

function version(packageName: string): string {
  return z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(packageRoot(packageName), "package.json"), "utf8"))).version;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
