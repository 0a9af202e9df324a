/**
 * Compiles the product contracts (`facilitator/contracts`) and the fixture zERC20 world
 * (`anvil-fixtures/contracts`) with solc-js standard JSON, caching the artifacts on disk by a hash of
 * everything that determines them, so only the first run of a checkout pays for the compiler.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import {
  contractArtifactSchema,
  readArtifactCache,
  withArtifactCacheLock,
  writeArtifactCache,
  artifactCachePath,
  type ArtifactCacheEntry,
  type ContractArtifact,
} from "./artifactCache.js";
import { DuplicateContractNameError, SolidityCompileError } from "./errors.js";

const require = createRequire(import.meta.url);

/** The repository root: this file sits at `<root>/anvil-fixtures/{src,dist}/compile/`. */
export const REPO_ROOT: string = fileURLToPath(new URL("../../../", import.meta.url));

/** Folders whose `.sol` files are compiled by default. */
export const DEFAULT_CONTRACT_DIRS: readonly string[] = [join(REPO_ROOT, "facilitator", "contracts"), join(REPO_ROOT, "anvil-fixtures", "contracts")];

/** Default artifact cache folder (git-ignored). */
export const DEFAULT_ARTIFACT_CACHE_DIR: string = join(REPO_ROOT, ".cache", "contracts");

/** Compiler settings shared by every build; part of the cache key. */
export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
} as const;

/** The outputs requested per source; part of the cache key, so asking for more invalidates old files. */
const OUTPUT_FIELDS = ["abi", "evm.bytecode.object"] as const;

/** Options of {@link compileContracts}. */
export type CompileContractsParameters = {
  /** Folders searched recursively for `.sol` files. Defaults to {@link DEFAULT_CONTRACT_DIRS}. */
  contractDirs?: readonly string[];
  /** Where cache files go. Defaults to {@link DEFAULT_ARTIFACT_CACHE_DIR}. */
  cacheDir?: string;
};

/** Result of {@link compileContracts}. */
export type CompileContractsReturnType = {
  /** Artifacts of every contract defined in the compiled folders, keyed by contract name. */
  artifacts: Record<string, ContractArtifact>;
  /** Compiler warnings (empty when there were none). */
  warnings: readonly string[];
  /** sha256 over solc version, settings and sources: the cache file's name. */
  cacheKey: string;
  /** Path of the cache file that holds these artifacts. */
  cachePath: string;
  /** Whether the artifacts came from the cache rather than from solc. */
  fromCache: boolean;
  /** Wall time of this call in milliseconds. */
  durationMs: number;
};

type SourceFile = { sourceName: string; content: string };

/**
 * Compiles every `.sol` file of the contract folders, or returns the cached artifacts when nothing that
 * affects the output changed.
 * @example
 * const { artifacts, fromCache } = await compileContracts();
 * artifacts.PermitBurner?.bytecode;
 */
export async function compileContracts(parameters: CompileContractsParameters = {}): Promise<CompileContractsReturnType> {
  const started = performance.now();
  const contractDirs = parameters.contractDirs ?? DEFAULT_CONTRACT_DIRS;
  const cacheDir = parameters.cacheDir ?? DEFAULT_ARTIFACT_CACHE_DIR;

  const sources = await collectSources(contractDirs);
  const solcVersion = packageVersion("solc");
  const cacheKey = computeCacheKey(solcVersion, sources);
  const finish = (entry: ArtifactCacheEntry, fromCache: boolean): CompileContractsReturnType => ({
    artifacts: entry.artifacts,
    warnings: entry.warnings,
    cacheKey,
    cachePath: artifactCachePath(cacheDir, cacheKey),
    fromCache,
    durationMs: performance.now() - started,
  });

  const cached = await readArtifactCache(cacheDir, cacheKey);
  if (cached !== undefined) return finish(cached, true);

  return withArtifactCacheLock(cacheDir, cacheKey, async () => {
    // Another worker may have compiled while we waited for the lock.
    const filled = await readArtifactCache(cacheDir, cacheKey);
    if (filled !== undefined) return finish(filled, true);
    const entry = await runSolc(solcVersion, cacheKey, sources);
    await writeArtifactCache(cacheDir, entry);
    return finish(entry, false);
  });
}

async function collectSources(contractDirs: readonly string[]): Promise<SourceFile[]> {
  const files: string[] = [];
  for (const dir of contractDirs) {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith(".sol")) files.push(join(entry.parentPath, entry.name));
    }
  }
  // Sorted so the cache key does not depend on directory listing order.
  const sourceNames = files.map((file) => relative(REPO_ROOT, file).split(sep).join("/")).sort();
  return Promise.all(sourceNames.map(async (sourceName) => ({ sourceName, content: await readFile(join(REPO_ROOT, sourceName), "utf8") })));
}

function computeCacheKey(solcVersion: string, sources: readonly SourceFile[]): string {
  const hash = createHash("sha256");
  // OpenZeppelin sources are read from node_modules during compilation; their version stands in for them.
  hash.update(
    JSON.stringify({
      solcVersion,
      openzeppelin: packageVersion("@openzeppelin/contracts"),
      settings: SOLC_SETTINGS,
      outputs: OUTPUT_FIELDS,
    }),
  );
  for (const source of sources) {
    hash.update(`\0${source.sourceName}\0${source.content}`);
  }
  return hash.digest("hex");
}

function packageVersion(packageName: string): string {
  const manifest: unknown = JSON.parse(readFileSync(require.resolve(`${packageName}/package.json`), "utf8"));
  return z.object({ version: z.string() }).parse(manifest).version;
}

const solcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string().optional(), message: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: contractArtifactSchema.shape.abi,
          evm: z.object({ bytecode: z.object({ object: z.string() }) }),
        }),
      ),
    )
    .optional(),
});

async function runSolc(solcVersion: string, cacheKey: string, sources: readonly SourceFile[]): Promise<ArtifactCacheEntry> {
  // Loaded lazily: the compiler is a large wasm blob that a cached run never needs.
  const { default: solc } = await import("solc");
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(sources.map((source) => [source.sourceName, { content: source.content }])),
    settings: {
      ...SOLC_SETTINGS,
      outputSelection: Object.fromEntries(sources.map((source) => [source.sourceName, { "*": [...OUTPUT_FIELDS] }])),
    },
  };
  // solc reports a failed import as an ordinary compile error, which lists the path; no need to throw here.
  const findImport = (importPath: string): { contents: string } | { error: string } => {
    try {
      return { contents: readFileSync(resolveImport(importPath), "utf8") };
    } catch {
      return { error: `not found in the repository or node_modules: ${importPath}` };
    }
  };
  const raw: unknown = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const output = solcOutputSchema.parse(raw);

  const diagnostics = output.errors ?? [];
  const errors = diagnostics.filter((item) => item.severity === "error").map((item) => item.formattedMessage ?? item.message);
  if (errors.length > 0) throw new SolidityCompileError(errors);
  const warnings = diagnostics.filter((item) => item.severity !== "error").map((item) => item.formattedMessage ?? item.message);

  const artifacts: Record<string, ContractArtifact> = {};
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, contract] of Object.entries(contracts)) {
      const existing = artifacts[contractName];
      if (existing !== undefined) throw new DuplicateContractNameError(contractName, [existing.sourceName, sourceName]);
      artifacts[contractName] = {
        contractName,
        sourceName,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
      };
    }
  }
  return { cacheKey, solcVersion, artifacts, warnings };
}

/** Resolves a solc import path: a repository file first, then a package in node_modules. */
function resolveImport(importPath: string): string {
  const local = join(REPO_ROOT, importPath);
  if (existsSync(local)) return local;
  return require.resolve(importPath);
}
