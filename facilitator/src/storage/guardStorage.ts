/**
 * The database going away must reach callers as one known error, not as whatever the driver happened to throw:
 * a refused or dropped connection, a server shutting down, a client the pool already closed. Every port method
 * of a storage wrapped here rethrows those as {@link StorageUnavailableError}, which the HTTP layer answers
 * with `storage_unavailable` or 503 and `Retry-After`. Anything else (a constraint violation, a record that
 * fails its schema, an error of a callback such as a relay's broadcast) passes through unchanged: it is a
 * bug or another component's failure, and retrying would not help.
 */
import pg from "pg";
import { StorageUnavailableError } from "./errors.js";
import type { FacilitatorStorage } from "./storagePorts.js";

// SQLSTATEs where the server, not the statement, failed: connection exceptions (class 08), the server
// shutting down or not yet accepting connections (57P01-57P03), no connection slot left (53300).
const CONNECTION_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// The driver reports a lost or closed connection with plain errors that carry no code.
const DRIVER_CONNECTION_MESSAGE =
  /^(Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/;

/** True when `error` says the database could not be reached or dropped the connection. */
export function isStorageConnectionFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return error.code !== undefined && CONNECTION_SQLSTATE.test(error.code);
  if (!(error instanceof Error)) return false;
  const code = "code" in error ? error.code : undefined;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  // Several addresses tried at once (localhost as ::1 and 127.0.0.1) fail together as one AggregateError.
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isStorageConnectionFailure);
  return DRIVER_CONNECTION_MESSAGE.test(error.message);
}

type AsyncMethod = (...args: never[]) => Promise<unknown>;

function guard<F extends AsyncMethod>(method: F): F {
  const guarded = async (...args: Parameters<F>) => {
    try {
      return await method(...args);
    } catch (error) {
      throw isStorageConnectionFailure(error) ? new StorageUnavailableError({ cause: error }) : error;
    }
  };
  return guarded as F;
}

/** `port` with every method's connection failures turned into {@link StorageUnavailableError}. */
export function guardPort<T extends object>(port: T): T {
  const entries = Object.entries(port).map(([name, value]) => [name, typeof value === "function" ? guard((value as AsyncMethod).bind(port)) : value]);
  return Object.fromEntries(entries) as T;
}

/** `storage` with every port method's connection failures turned into {@link StorageUnavailableError}. */
export function guardStorage(storage: FacilitatorStorage): FacilitatorStorage {
  const openStock = guard(storage.openBurnAddressStock.bind(storage));
  return {
    kind: storage.kind,
    location: storage.location,
    readiness: storage.readiness,
    tornJournalLine: storage.tornJournalLine,
    challenges: guardPort(storage.challenges),
    journal: guardPort(storage.journal),
    settleClaims: guardPort(storage.settleClaims),
    finalizeQueue: guardPort(storage.finalizeQueue),
    relayNonces: guardPort(storage.relayNonces),
    rateLimits: guardPort(storage.rateLimits),
    chainIdentity: guardPort(storage.chainIdentity),
    witnessState: guardPort(storage.witnessState),
    // Opening reads nothing yet; the history log a shared history reads and writes is guarded by its adapter.
    history: storage.history,
    openBurnAddressStock: async (binding, owner) => {
      const stock = await openStock(binding, owner);
      return stock === undefined ? undefined : { ...stock, add: guard(stock.add), take: guard(stock.take) };
    },
    ping: guard(storage.ping.bind(storage)),
    close: () => storage.close(),
  };
}
