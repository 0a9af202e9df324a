/** The test PostgreSQL server, kept off the package's main entry so only the tests that need it load it. */
export { PostgresStartError, startPostgres, type RunningPostgres } from "./startPostgres.js";
