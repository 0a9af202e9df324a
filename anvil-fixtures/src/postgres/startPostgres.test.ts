import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type RunningPostgres } from "./startPostgres.js";

let server: RunningPostgres;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

describe("startPostgres", () => {
  it("serves separate databases that keep their own tables", async () => {
    const first = new pg.Client({ connectionString: await server.createDatabase() });
    const second = new pg.Client({ connectionString: await server.createDatabase() });
    await first.connect();
    await second.connect();
    try {
      await first.query("create table marker (v int)");
      await first.query("insert into marker values (7)");
      expect((await first.query("select v from marker")).rows).toEqual([{ v: 7 }]);
      await expect(second.query("select v from marker")).rejects.toThrow(/marker/);
      const { rows } = await first.query("select current_setting('server_version_num')::int as version");
      expect(rows[0].version).toBeGreaterThanOrEqual(150000);
    } finally {
      await first.end();
      await second.end();
    }
  });
});
