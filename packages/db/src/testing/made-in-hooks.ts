import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./database";

/**
 * A value made on first use, e.g. a service over the file's database: `make` runs when a test or
 * hook first reads it, not where it is declared, so it can stand at the top of a test file.
 * @example
 * const database = useTestDatabase();
 * const inventory = lazy(() => createInventoryService(database.db)); // a module not yet converted ([16])
 */
export function lazy<T extends object>(make: () => T): T {
  let made: T | undefined;
  const target = () => (made ??= make());
  // Spreads (`{ ...database, ping }`) and `in` see the made value's own properties too.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may not report a property its (empty) target lacks as non-configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
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
