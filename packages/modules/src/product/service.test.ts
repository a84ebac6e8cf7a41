import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { HANDLE_PATTERN } from "@kasse/core";
import { queryRows, useDatabase } from "@kasse/db";
import { createCountingDatabase, onPostgres, type CountingDatabase } from "@kasse/db/testing";
import { toHandle } from "./handle";
import { createProductService } from "./service";

let database: CountingDatabase;
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const products = createProductService();
beforeAll(async () => {
  database = await createCountingDatabase();
  // The counting handle is the process's database, so every statement the service sends is counted.
  useDatabase(database.db);
});
afterAll(() => database.close());

describe("handles", () => {
  it("are lower-case ASCII words joined by hyphens", () => {
    expect(toHandle("  Crème Brûlée: 2 × Größe  ")).toBe("creme-brulee-2-grosse");
    expect(toHandle("Hello, World!")).toBe("hello-world");
    expect(toHandle("???")).toBe("");
  });

  it("are cut to fit the handle limit with room for a -n suffix, even when folding lengthens the title", () => {
    const handle = toHandle("ß".repeat(255));
    expect(handle).toBe("s".repeat(247));
    expect(toHandle(`${"a".repeat(246)} b c`)).toBe("a".repeat(246));
    expect(handle).toMatch(new RegExp(HANDLE_PATTERN));
  });
});

describe("product service", () => {
  it("loads each relation of a page with one query, whatever the page size", async () => {
    const tag = await products.tags.create({ value: "q" });
    for (let n = 0; n < 20; n++) {
      await products.create({
        title: `Counted ${n}`,
        tags: [{ id: tag.id }],
        images: [{ url: `https://img/${n}` }],
        options: [{ title: "Size", values: ["S", "M"] }],
        variants: [
          { title: "S", options: { Size: "S" }, prices: [] },
          { title: "M", options: { Size: "M" }, prices: [] },
        ],
      });
    }
    const one = await database.count(() => products.list({ q: "counted" }, { limit: 1, offset: 0 }));
    const twenty = await database.count(() => products.list({ q: "counted" }, { limit: 20, offset: 0 }));
    expect(twenty).toBe(one);
    const { items } = await products.list({ q: "counted" }, { limit: 20, offset: 0 });
    expect(items).toHaveLength(20);
    expect(
      items.every((p) => p.variants?.length === 2 && p.options?.[0]?.values.length === 2 && p.tags?.length === 1),
    ).toBe(true);
  });

  it("keeps the category tree acyclic with dense ranks and finds descendants", async () => {
    const { categories } = products;
    const root = await categories.create({ name: "Root" });
    const child = await categories.create({ name: "Child", parent_category_id: root.id });
    const grandchild = await categories.create({ name: "Grandchild", parent_category_id: child.id });
    const first = await categories.create({ name: "First", parent_category_id: root.id, rank: 0 });
    const tree = await categories.retrieve(root.id, { include_descendants_tree: true });
    expect(tree.category_children.map((c) => [c.name, c.rank])).toEqual([
      ["First", 0],
      ["Child", 1],
    ]);
    expect(tree.category_children[1]!.category_children.map((c) => c.id)).toEqual([grandchild.id]);
    await expect(categories.update(root.id, { parent_category_id: grandchild.id })).rejects.toMatchObject({
      type: "invalid_data",
    });
    await expect(categories.update(root.id, { parent_category_id: root.id })).rejects.toMatchObject({
      type: "invalid_data",
    });
    await expect(categories.delete(child.id)).rejects.toMatchObject({ type: "invalid_data" });

    const moved = await categories.update(child.id, { parent_category_id: null });
    expect(moved).toMatchObject({ parent_category_id: null });
    expect((await categories.retrieve(grandchild.id)).mpath).toBe(`${child.id}.${grandchild.id}`);
    expect((await categories.retrieve(first.id)).rank).toBe(0);
    expect(await categories.withDescendants([child.id])).toEqual([child.id, grandchild.id]);

    const top = await categories.list({ parent_category_id: [null] }, { limit: 100, offset: 0 });
    expect(top.items.map((c) => c.id)).toEqual(expect.arrayContaining([root.id, child.id]));
    expect(top.items.map((c) => c.id)).not.toContain(grandchild.id);
  });

  it.runIf(onPostgres())(
    "answers q from the trigram indexes, not a sequential scan, over 100k products",
    async () => {
      const db = database.db;
      await db.execute(sql`
        insert into product (id, title, handle, status, description)
        select 'prod_bulk_' || g, 'Bulk product ' || md5(g::text), 'bulk-' || g, 'published', md5((g * 7)::text)
        from generate_series(1, 100000) g`);
      await db.execute(sql`
        insert into product_variant (id, product_id, title, sku)
        select 'variant_bulk_' || g, 'prod_bulk_' || g, 'Default', 'SKU-' || md5((g * 13)::text)
        from generate_series(1, 100000) g`);
      await db.execute(sql`analyze product`);
      await db.execute(sql`analyze product_variant`);

      const before = database.queries.length;
      const { items } = await products.list({ q: "c0ffee" }, { limit: 15, offset: 0 }, { relations: [] });
      expect(Array.isArray(items)).toBe(true);
      // The statement the service sent for the page, explained with its parameters inlined.
      const pageQuery = database.queries.slice(before).find((q) => q.includes("limit"));
      expect(pageQuery).toBeDefined();
      const plan = await queryRows<{ "QUERY PLAN": string }>(
        db,
        sql.raw(`explain ${pageQuery!.replace(/\$\d+/g, (m) => paramFor(m))}`),
      );
      const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text).toContain("Bitmap Index Scan on product_search_trgm_idx");
      expect(text).toContain("Bitmap Index Scan on product_variant_sku_trgm_idx");
      expect(text).not.toMatch(/Seq Scan on product\b/);
    },
    120_000,
  );
});

/** Parameters of the list page query in order: the `q` pattern twice, then limit and offset. */
function paramFor(placeholder: string): string {
  const index = Number(placeholder.slice(1));
  return ["'%c0ffee%'", "'%c0ffee%'", "15", "0"][index - 1] ?? "null";
}
