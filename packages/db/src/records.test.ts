import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { text } from "drizzle-orm/pg-core";
import { entityTable } from "./columns";
import { textSearch } from "./list";
import { liveRecords } from "./records";
import { useTestDatabase } from "./testing";

const shelf = entityTable("records_test_shelf", { name: text("name").notNull() });
const book = entityTable("records_test_book", { shelf_id: text("shelf_id").notNull(), title: text("title").notNull() });

const database = useTestDatabase();
const timestamps = sql.raw(
  "created_at timestamptz not null default now(), updated_at timestamptz not null default now(), deleted_at timestamptz",
);
beforeAll(async () => {
  const db = database.db;
  await db.execute(sql`create table records_test_shelf (id text primary key, name text not null, ${timestamps})`);
  await db.execute(
    sql`create table records_test_book (id text primary key, shelf_id text not null, title text not null, ${timestamps})`,
  );
  await db.insert(shelf).values([
    { id: "s1", name: "Poetry", created_at: new Date("2026-01-01T00:00:00Z") },
    { id: "s2", name: "Prose 50%", created_at: new Date("2026-01-02T00:00:00Z") },
    { id: "s3", name: "Gone", created_at: new Date("2026-01-03T00:00:00Z"), deleted_at: new Date() },
  ]);
  await db.insert(book).values([
    { id: "b2", shelf_id: "s1", title: "Odes" },
    { id: "b1", shelf_id: "s1", title: "Elegies" },
    { id: "b3", shelf_id: "s2", title: "Novel", deleted_at: new Date() },
  ]);
});

describe("liveRecords", () => {
  const shelves = () => liveRecords(shelf, "Shelf", { name: shelf.name });

  it("retrieves, finds and lists live rows only; an unknown or deleted id is not_found", async () => {
    expect((await shelves().retrieve("s1")).name).toBe("Poetry");
    expect(await shelves().find("s3")).toBeUndefined();
    await expect(shelves().retrieve("s3")).rejects.toMatchObject({
      type: "not_found",
      message: "Shelf with id: s3 was not found",
    });
    const page = await shelves().list([], { limit: 1, offset: 0, order: "-created_at" });
    expect(page).toMatchObject({ count: 2, items: [{ id: "s2" }] });
    const searched = await shelves().list(textSearch("50%", [shelf.name]), { limit: 10, offset: 0 });
    expect(searched.items.map((s) => s.id)).toEqual(["s2"]);
    await expect(shelves().list([], { limit: 10, offset: 0, order: "title" })).rejects.toMatchObject({
      type: "invalid_data",
    });
    expect([...(await shelves().existing(["s1", "s3", "nope"]))]).toEqual(["s1"]);
  });

  it("updates and soft-deletes a live row; both are not_found for a deleted one", async () => {
    expect((await shelves().update("s2", { name: "Prose" })).name).toBe("Prose");
    expect((await shelves().update("s2", {})).name).toBe("Prose");
    await expect(shelves().update("s3", { name: "Back" })).rejects.toMatchObject({ type: "not_found" });
    await shelves().softDelete("s2");
    expect(await shelves().find("s2")).toBeUndefined();
    await expect(shelves().softDelete("s2")).rejects.toMatchObject({ type: "not_found" });
  });

  it("inserts a row; a unique violation is a conflict with the message given, else the database's error", async () => {
    expect(await shelves().insert({ id: "s4", name: "Drama" })).toMatchObject({
      id: "s4",
      name: "Drama",
      deleted_at: null,
    });
    await expect(shelves().insert({ id: "s4", name: "Again" }, "Shelf s4 already exists")).rejects.toMatchObject({
      type: "conflict",
      message: "Shelf s4 already exists",
    });
    await expect(shelves().insert({ id: "s4", name: "Again" })).rejects.not.toMatchObject({ type: "conflict" });
    await expect(shelves().update("s1", { id: "s4" }, "Shelf s4 already exists")).rejects.toMatchObject({
      type: "conflict",
    });
    expect((await shelves().retrieve("s1")).name).toBe("Poetry");
  });

  it("says whether any row is live: deleted rows do not count", async () => {
    const empty = entityTable("records_test_empty", { name: text("name") });
    await database.db.execute(sql`create table records_test_empty (id text primary key, name text, ${timestamps})`);
    const rows = liveRecords(empty, "Empty");
    expect(await rows.any()).toBe(false);
    await database.db.insert(empty).values({ id: "e1", deleted_at: new Date() });
    expect(await rows.any()).toBe(false);
    await database.db.insert(empty).values({ id: "e2" });
    expect(await rows.any()).toBe(true);
    expect(await shelves().any()).toBe(true);
  });
});
