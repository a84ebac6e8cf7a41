import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connect, PGLITE_SHARED_BUFFERS } from "./connect";
import { queryRows } from "./rows";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe.skipIf(process.env.DATABASE_URL)("connect (PGlite)", () => {
  it("runs an on-disk database with its own shared buffers, over the one its initdb wrote, on a reopen too", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "kasse-pglite-"));
    dirs.push(dataDir);
    for (let open = 0; open < 2; open++) {
      const database = await connect({ dataDir });
      try {
        const [row] = await queryRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
        expect(row?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
      } finally {
        await database.close();
      }
    }
  }, 120_000);
});

// Each driver is imported when first connected with (connect.ts): both paths open and answer.
describe.runIf(process.env.DATABASE_URL)("connect (PostgreSQL)", () => {
  it("opens a pool that answers", async () => {
    const database = await connect({ url: process.env.DATABASE_URL, poolSize: 1 });
    try {
      expect(database.kind).toBe("postgres");
      await database.ping();
    } finally {
      await database.close();
    }
  });
});
