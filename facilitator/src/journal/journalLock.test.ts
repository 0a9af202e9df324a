/**
 * The journal lock on real files and real processes: a live holder (this process, or another one still
 * running) is refused, a dead one's lock is taken over, a lock from another host is never taken over, and a
 * torn lock is taken as being written while it is young.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JournalLockedError } from "./errors.js";
import { lockJournal, UNREADABLE_LOCK_GRACE_MS } from "./journalLock.js";

let dir: string;
let journal: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-lock-"));
  journal = join(dir, "journal.jsonl");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const holderFile = (pid: number, host = hostname()) => `${JSON.stringify({ pid, hostname: host, owner: "someone", at: 1 })}\n`;

/** A process that has exited: its pid names nobody (until the kernel reuses it, which a test run does not wait for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid as number;
}

describe("lockJournal", () => {
  it("refuses a second lock in this process until the first is released", async () => {
    const lock = await lockJournal(journal);
    await expect(lockJournal(journal)).rejects.toBeInstanceOf(JournalLockedError);
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname() });
    await lock.release();
    await expect(readFile(lock.path, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    const again = await lockJournal(journal);
    expect(again.tookOverFrom).toBeUndefined();
    await again.release();
  });

  it("refuses a lock held by another live process and leaves its file alone", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      await writeFile(`${journal}.lock`, holderFile(child.pid as number));
      const refused = await lockJournal(journal).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(JournalLockedError);
      expect((refused as Error).message).toContain(`pid ${child.pid}`);
      expect(await readFile(`${journal}.lock`, "utf8")).toBe(holderFile(child.pid as number));
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes over the lock of a process that is gone", async () => {
    const pid = await deadPid();
    await writeFile(`${journal}.lock`, holderFile(pid));
    const lock = await lockJournal(journal);
    expect(lock.tookOverFrom).toMatchObject({ pid });
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it("never takes over a lock written on another host", async () => {
    await writeFile(`${journal}.lock`, holderFile(await deadPid(), "another-host.example"));
    await expect(lockJournal(journal)).rejects.toThrow(/on another-host\.example/);
  });

  it("takes a torn lock as being written while it is young, and as stale once it is old", async () => {
    await writeFile(`${journal}.lock`, '{"pid":');
    await expect(lockJournal(journal)).rejects.toThrow(/starting right now/);
    const old = new Date(Date.now() - UNREADABLE_LOCK_GRACE_MS * 2);
    await utimes(`${journal}.lock`, old, old);
    const lock = await lockJournal(journal);
    expect(lock.tookOverFrom).toMatchObject({ pid: 0 });
    await lock.release();
  });

  it("release leaves a lock that another holder has taken since", async () => {
    const lock = await lockJournal(journal);
    await writeFile(lock.path, holderFile(process.pid));
    await lock.release();
    expect(await readFile(lock.path, "utf8")).toBe(holderFile(process.pid));
  });
});
