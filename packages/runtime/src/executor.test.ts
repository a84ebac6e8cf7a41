import { afterAll, describe, expect, it } from "vitest";
import { connect, type Database } from "@kasse/db";
import { createTestDatabase, onPostgres } from "@kasse/db/testing";
import { takeExecutor } from "./executor";

// The executor identity is held by one live process at a time: a second process started under it
// (by mistake) runs under an identity of its own, so it never resumes the first one's live work;
// once the holder is gone (its connection closed, as at a crash), the next process takes it.

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened.reverse()) await database.close();
});

describe.skipIf(!onPostgres())("takeExecutor on PostgreSQL", () => {
  it("gives the identity to one live process at a time", async () => {
    const test = await createTestDatabase();
    opened.push(test);
    const open = async () => {
      const database = await connect({ url: test.url!, poolSize: 1 });
      opened.push(database);
      return database;
    };
    const identity = `host-${Date.now()}:api`;
    const first = await open();
    const held = await takeExecutor(first, identity, undefined);
    expect(held.id).toBe(identity);
    expect(held.lock).toBeDefined();

    const warnings: unknown[] = [];
    const logger = { info: () => {}, warn: (...args: unknown[]) => void warnings.push(args), error: () => {} };
    const second = await takeExecutor(await open(), identity, logger);
    expect(second.id).toMatch(new RegExp(`^${identity}~${process.pid}-[0-9a-f]{6}$`));
    expect(second.lock).toBeDefined(); // its own identity's, so the recovery sweep leaves its work alone
    expect(warnings).toHaveLength(1);

    // The holder's connection closes (a crash closes it too): the next start takes the identity.
    await first.close();
    const third = await takeExecutor(await open(), identity, undefined);
    expect(third).toMatchObject({ id: identity });
    await third.lock!.release();
    expect((await takeExecutor(await open(), identity, undefined)).id).toBe(identity);
  });
});
