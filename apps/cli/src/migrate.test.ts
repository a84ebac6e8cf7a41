import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connect, queryRows, type Database } from "@kasse/db";
import { onPostgres } from "@kasse/db/testing";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { migrationsFolder } from "@kasse/db";
import { migrateExclusively } from "./migrate";

const serverUrl = process.env.DATABASE_URL;
const name = `kasse_t_${Math.floor(Date.now() / 1000)}_mig${randomBytes(3).toString("hex")}`;
const urlOf = (db: string) => {
  const url = new URL(serverUrl!);
  url.pathname = `/${db}`;
  return url.toString();
};
const journalEntries = (): number =>
  JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")).entries.length;

describe.skipIf(!onPostgres())("kasse migrate on PostgreSQL", () => {
  let admin: Database;
  beforeAll(async () => {
    admin = await connect({ url: urlOf("postgres"), poolSize: 1 });
    await admin.db.execute(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.db.execute(`drop database if exists ${name} with (force)`);
    await admin.close();
  });

  it("lets two processes migrate at once: one applies, the other waits and finds nothing left", async () => {
    const a = await connect({ url: urlOf(name), poolSize: 3 });
    const b = await connect({ url: urlOf(name), poolSize: 3 });
    try {
      await Promise.all([migrateExclusively(a), migrateExclusively(b)]);
      const [row] = await queryRows<{ count: number }>(
        a.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(row!.count).toBe(journalEntries());
      // Running again is a no-op.
      await migrateExclusively(a);
      const [again] = await queryRows<{ count: number }>(
        a.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(again!.count).toBe(journalEntries());
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("waits while another process holds the migration lock", async () => {
    const holder = await connect({ url: urlOf(name), poolSize: 1 });
    const migrator = await connect({ url: urlOf(name), poolSize: 3 });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = holder.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('kasse:migrate', 0))`);
        locked();
        await held;
      });
      await isLocked;
      let done = false;
      const migrating = migrateExclusively(migrator).then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      release();
      await holding;
      await migrating;
      expect(done).toBe(true);
    } finally {
      await holder.close();
      await migrator.close();
    }
  });
});
