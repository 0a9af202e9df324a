import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileContracts } from "./compileContracts.js";
import { DuplicateContractNameError, SolidityCompileError } from "./errors.js";
import { DEPLOYABLE_CONTRACT_NAMES, loadArtifacts } from "./loadArtifacts.js";

const scratch = await mkdtemp(join(tmpdir(), "svc-compile-"));

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A folder holding the given Solidity files. */
async function contractDir(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  await Promise.all(Object.entries(files).map(([file, content]) => writeFile(join(dir, file), content)));
  return dir;
}

const PRAGMA = "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n";

describe("compileContracts", () => {
  it("compiles once, resolving OpenZeppelin imports from node_modules, and serves the second call from the cache", async () => {
    const cacheDir = join(scratch, "cache-oz");
    const dir = await contractDir("oz", {
      "Coin.sol": `${PRAGMA}import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";\ncontract Coin is ERC20 { constructor() ERC20("Coin", "C") {} }\n`,
    });
    const first = await compileContracts({ contractDirs: [dir], cacheDir });
    const second = await compileContracts({ contractDirs: [dir], cacheDir });

    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(second.cacheKey).toBe(first.cacheKey);
    expect(second.cachePath).toBe(join(cacheDir, `${first.cacheKey}.json`));
    expect(second.artifacts).toEqual(first.artifacts);
    expect(first.warnings).toEqual([]);
    // Only the compiled folders' contracts become artifacts, not the imported library's.
    expect(Object.keys(first.artifacts)).toEqual(["Coin"]);
    expect(first.artifacts.Coin?.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
  });

  it("changes the cache key when a source changes", async () => {
    const cacheDir = join(scratch, "cache-small");
    const dir = await contractDir("small", { "Small.sol": `${PRAGMA}contract Small { uint256 public x = 1; }\n` });
    const before = await compileContracts({ contractDirs: [dir], cacheDir });
    await writeFile(join(dir, "Small.sol"), `${PRAGMA}contract Small { uint256 public x = 2; }\n`);
    const after = await compileContracts({ contractDirs: [dir], cacheDir });
    expect(after.fromCache).toBe(false);
    expect(after.cacheKey).not.toBe(before.cacheKey);
  });

  it("throws SolidityCompileError listing every compiler error, including unresolved imports", async () => {
    const dir = await contractDir("broken", {
      "Broken.sol": `${PRAGMA}import {Nope} from "@openzeppelin/contracts/does/not/Exist.sol";\ncontract Broken {}\n`,
    });
    const failure = compileContracts({ contractDirs: [dir], cacheDir: join(scratch, "cache-broken") });
    await expect(failure).rejects.toBeInstanceOf(SolidityCompileError);
    await expect(failure).rejects.toMatchObject({
      name: "SolidityCompileError",
      errors: [expect.stringContaining("@openzeppelin/contracts/does/not/Exist.sol")],
    });
  });

  it("throws DuplicateContractNameError when two sources define the same contract name", async () => {
    const one = await contractDir("dup-one", { "A.sol": `${PRAGMA}contract Twin {}\n` });
    const two = await contractDir("dup-two", { "B.sol": `${PRAGMA}contract Twin { uint256 y; }\n` });
    await expect(compileContracts({ contractDirs: [one, two], cacheDir: join(scratch, "cache-dup") })).rejects.toBeInstanceOf(DuplicateContractNameError);
  });
});

describe("loadArtifacts", () => {
  it("returns ABI and bytecode for every deployable contract of the repository", async () => {
    // The default cache: shared with the other test files, so the repository compiles once per checkout.
    const artifacts = await loadArtifacts();
    expect(Object.keys(artifacts).sort()).toEqual([...DEPLOYABLE_CONTRACT_NAMES].sort());
    for (const name of DEPLOYABLE_CONTRACT_NAMES) expect(artifacts[name].bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(artifacts.PermitBurner.abi.some((item) => item.type === "function" && item.name === "permitAndBurn")).toBe(true);
  });
});
