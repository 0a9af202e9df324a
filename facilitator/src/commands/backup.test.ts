/**
 * `export` and `import` on real state: a daemon's file journal with an accepted payment and an open offer is
 * exported, restored into a fresh PostgreSQL database, exported from there, and restored into a new file
 * journal that a daemon then runs on with the same payments. A state that holds anything is refused.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { migratePostgres } from "../storage/postgresMigrations.js";
import { parseBackup } from "../storage/stateBackup.js";
import {
  adminGet,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  writeConfigVariant,
  type TestStack,
} from "../testing/localFacilitator.js";
import { openTestPool } from "../testing/openTestPool.js";
import { runCli } from "./runCli.js";

let stack: TestStack;
let server: RunningPostgres;

beforeAll(async () => {
  [stack, server] = await Promise.all([startTestStack(), startPostgres()]);
});

afterAll(async () => {
  await stack?.close();
  await server?.stop();
});

async function cli(argv: string[], env: Record<string, string | undefined> = stack.env) {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const code = await runCli(argv, {
    env,
    stdin: process.stdin,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    colorDepth: 1,
  });
  return { code, stdout, stderr };
}

const sortedChallenges = (text: string) => {
  const backup = parseBackup(text);
  return { ...backup, challenges: [...backup.challenges].sort((a, b) => a.challengeNonce.localeCompare(b.challengeNonce)) };
};

describe("export and import", () => {
  it("round-trips a daemon's state through PostgreSQL into a new journal a daemon runs on", async () => {
    const source = await startTestDaemon(stack, "backup-src");
    const paid = await requestOffer(source, "2000");
    const burnTxHash = await broadcastBurn(stack, paid, stack.deployment.accounts.payer.privateKey);
    const settled = await postJson(`${source.url}/settle`, facilitatorBody(paid, { challengeNonce: paid.extra.challengeNonce, burnTxHash }));
    expect(settled.body.success).toBe(true);
    const open = await requestOffer(source, "3000");
    await source.stop();

    const first = join(stack.dir, "backup-1.jsonl");
    const exported = await cli(["export", "--config", source.configPath, "--out", first]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/^exported \d+ challenges, \d+ journal records, 0 history records \(chain 31337, genesis 0x[0-9a-f]{64}\)\n$/);
    expect((await stat(first)).mode & 0o777).toBe(0o600);
    const fromFile = await readFile(first, "utf8");
    const backup = parseBackup(fromFile);
    expect(backup.chain?.genesisHash).toBe((await stack.client.getBlock({ blockNumber: 0n })).hash);
    expect(backup.challenges.map((challenge) => challenge.challengeNonce)).toEqual(
      expect.arrayContaining([paid.extra.challengeNonce, open.extra.challengeNonce]),
    );
    expect(backup.journal).toContainEqual(expect.objectContaining({ type: "accepted", burnTxHash }));

    // Into an empty, migrated database, and out of it again: the same state.
    const url = new URL(await server.createDatabase());
    const database = openTestPool(url.toString(), { max: 1 });
    try {
      await migratePostgres(database);
    } finally {
      await database.end();
    }
    const env = { ...stack.env, SVC_STORAGE_PASSWORD: decodeURIComponent(url.password) };
    url.password = "";
    const shared = await writeConfigVariant(stack, "backup-pg", { storage: { url: url.toString() }, settlement: { journal: null } });
    const imported = await cli(["import", "--config", shared, "--in", first], env);
    expect(imported).toMatchObject({ code: 0, stderr: "" });
    expect(imported.stdout).toMatch(/^imported /);
    const again = await cli(["export", "--config", shared], env);
    expect(again.code).toBe(0);
    expect(sortedChallenges(again.stdout)).toEqual(sortedChallenges(fromFile));
    // A database that holds state is refused.
    const refused = await cli(["import", "--config", shared, "--in", first], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/holds state already/);

    // Into a new journal: a daemon on it has the accepted payment and still settles the open offer's re-send.
    const second = join(stack.dir, "backup-2.jsonl");
    await writeFile(second, again.stdout);
    const restoredConfig = await writeConfigVariant(stack, "backup-dst", { settlement: { journal: "backup-dst.journal.jsonl" } });
    expect((await cli(["import", "--config", restoredConfig, "--in", second])).code).toBe(0);
    const restored = await startTestDaemon(stack, "backup-dst");
    try {
      const { settlements } = await adminGet(stack, restored, "/admin/settlements");
      expect(settlements).toContainEqual(expect.objectContaining({ challengeNonce: paid.extra.challengeNonce, state: "accepted", burnTxHash }));
      const resent = await postJson(`${restored.url}/settle`, facilitatorBody(paid, { challengeNonce: paid.extra.challengeNonce, burnTxHash }));
      expect(resent.body).toMatchObject({ success: true, transaction: burnTxHash });
      expect((await adminGet(stack, restored, "/admin/status")).openChallenges).toBe(1);
    } finally {
      await restored.stop();
    }
    // A journal that exists is refused and left as it was.
    const journal = join(stack.dir, "backup-dst.journal.jsonl");
    const before = await readFile(journal, "utf8");
    const onto = await cli(["import", "--config", restoredConfig, "--in", second]);
    expect(onto.code).toBe(1);
    expect(onto.stderr).toMatch(/exists: import writes only into an empty state/);
    expect(await readFile(journal, "utf8")).toBe(before);
  });
});
