import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./index";

/**
 * A value made on first use, e.g. a service over the file's database: `make` runs when a test or
 * hook first reads it, not where it is declared, so it can stand at the top of a test file.
 * @example
 * const database = useTestDatabase();
 * const users = lazy(() => createUserService(database.db));
 */
export function lazy<T extends object>(make: () => T): T {
  let made: T | undefined;
  return new Proxy({} as T, { get: (_, key) => Reflect.get((made ??= make()), key) });
}

/**
 * The test file's database (see {@link createTestDatabase}), made before its tests and dropped
 * after them: `const database = useTestDatabase();` stands for `let database` with its
 * `beforeAll`/`afterAll`. Read it inside tests and hooks.
 */
export function useTestDatabase(options: { poolSize?: number } = {}): TestDatabase {
  let made: TestDatabase | undefined;
  beforeAll(async () => {
    made = await createTestDatabase(options);
  });
  afterAll(() => made?.close());
  return lazy(() => {
    if (!made) throw new Error("useTestDatabase: read before the database was made (outside a test or hook)");
    return made;
  });
}
