import { spawnSync } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { makeTempDir } from "../testing/tempDir.js";
import { LedgerLockTimeoutError } from "./errors.js";
import { withFileLock } from "./withFileLock.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let lockPath: string;
beforeEach(async () => {
  dir = await makeTempDir();
  lockPath = join(dir.path, "test.lock");
});
afterEach(() => dir.remove());

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("withFileLock", () => {
  it("serializes critical sections: an unlocked read-modify-write would lose updates", async () => {
    let counter = 0;
    let inside = 0;
    let overlap = false;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(lockPath, async () => {
          inside += 1;
          if (inside > 1) overlap = true;
          const read = counter;
          await delay(1);
          counter = read + 1;
          inside -= 1;
        }),
      ),
    );
    expect(overlap).toBe(false);
    expect(counter).toBe(20);
    expect(await readdir(dir.path)).toEqual([]);
  });

  it("breaks a lock left by a dead process", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: deadPid(), token: "left-behind" }));
    await expect(withFileLock(lockPath, async () => "ran", { timeoutMs: 2000 })).resolves.toBe("ran");
    expect(await readdir(dir.path)).toEqual([]);
  });

  it("waits for a live holder and gives up with a named error", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, token: "someone else in this process" }));
    await expect(withFileLock(lockPath, async () => "ran", { timeoutMs: 100 })).rejects.toThrow(LedgerLockTimeoutError);
    expect(await readdir(dir.path)).toEqual(["test.lock"]);
  });

  it("breaks an ownerless lock only once it is older than the stale limit", async () => {
    await writeFile(lockPath, "");
    await expect(withFileLock(lockPath, async () => "ran", { timeoutMs: 100, staleMs: 60_000 })).rejects.toThrow(LedgerLockTimeoutError);
    await expect(withFileLock(lockPath, async () => "ran", { timeoutMs: 2000, staleMs: 0 })).resolves.toBe("ran");
  });
});
