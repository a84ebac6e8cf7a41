// Test support of the database layer: a database of the test file's own, and what counts its statements.
export { createTestDatabase, failure, joinTestDatabase, onPostgres, type TestDatabase } from "./database";
export { countQueries, createCountingDatabase, type CountingDatabase } from "./query-count";
export { StatementLog } from "./statements";
export { lazy, useTestDatabase } from "./made-in-hooks";
