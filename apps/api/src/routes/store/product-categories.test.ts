import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
const ids: Record<string, string> = {};
beforeAll(async () => {
  const categories = t.app.modules.product.categories;
  ids.men = (await categories.create({ name: "Men", handle: "men", is_active: true })).id;
  ids.shirts = (
    await categories.create({ name: "Shirts", handle: "shirts", is_active: true, parent_category_id: ids.men })
  ).id;
  ids.linen = (
    await categories.create({ name: "Linen", handle: "linen", is_active: true, parent_category_id: ids.shirts })
  ).id;
  ids.hidden = (
    await categories.create({
      name: "Hidden",
      handle: "hidden",
      is_active: true,
      is_internal: true,
      parent_category_id: ids.men,
    })
  ).id;
  ids.inactive = (await categories.create({ name: "Inactive", handle: "inactive", is_active: false })).id;
});

const names = (body: { product_categories: Array<{ name: string }> }) =>
  body.product_categories.map((c) => c.name).sort();

describe("store product categories", () => {
  it("lists active public categories only", async () => {
    const all = (await t.store.get("/store/product-categories")).json();
    expect(all).toMatchObject({ count: 3, offset: 0, limit: 15 });
    expect(names(all)).toEqual(["Linen", "Men", "Shirts"]);
  });

  it("filters the top level with parent_category_id=null and nests the tree on request", async () => {
    const top = (await t.store.get("/store/product-categories?parent_category_id=null")).json();
    expect(names(top)).toEqual(["Men"]);
    const men = top.product_categories[0];
    expect(men).toMatchObject({ id: ids.men, handle: "men", parent_category_id: null });
    expect(men.category_children.map((c: { name: string }) => c.name)).toEqual(["Shirts"]);
    expect(men.category_children[0].category_children).toEqual([]);
    const tree = (
      await t.store.get("/store/product-categories?parent_category_id=null&include_descendants_tree=true")
    ).json().product_categories[0];
    expect(tree.category_children[0].category_children.map((c: { name: string }) => c.name)).toEqual(["Linen"]);
    expect(names((await t.store.get(`/store/product-categories?parent_category_id=${ids.men}`)).json())).toEqual([
      "Shirts",
    ]);
  });

  it("retrieves by id or handle; hidden ones are 404", async () => {
    const shirts = (await t.store.get("/store/product-categories/shirts")).json().product_category;
    expect(shirts).toMatchObject({
      id: ids.shirts,
      name: "Shirts",
      parent_category_id: ids.men,
      parent_category: { id: ids.men },
    });
    expect(
      (await t.store.get(`/store/product-categories/${ids.men}?include_descendants_tree=true`)).json().product_category
        .category_children[0].category_children,
    ).toHaveLength(1);
    for (const id of [ids.hidden, ids.inactive, "pcat_missing"])
      expect((await t.store.get(`/store/product-categories/${id}`)).statusCode).toBe(404);
  });

  it("walks parent_category up to the root when fields asks for parent_category.parent_category", async () => {
    const fields = "*category_children, *products, *parent_category, *parent_category.parent_category";
    const list = (await t.store.get(`/store/product-categories?limit=100&fields=${encodeURIComponent(fields)}`)).json();
    const linen = list.product_categories.find((c: { handle: string }) => c.handle === "linen");
    expect(linen.parent_category).toMatchObject({
      id: ids.shirts,
      handle: "shirts",
      parent_category: { id: ids.men, handle: "men", parent_category: null },
    });
    const men = list.product_categories.find((c: { handle: string }) => c.handle === "men");
    expect(men.parent_category).toBeNull();
    // One level only when not asked further.
    const one = (await t.store.get(`/store/product-categories/${ids.linen}`)).json().product_category;
    expect(one.parent_category).toMatchObject({ id: ids.shirts });
    expect(one.parent_category).not.toHaveProperty("parent_category");
    // Medusa's include_ancestors_tree names the same walk.
    const tree = (await t.store.get(`/store/product-categories/${ids.linen}?include_ancestors_tree=true`)).json();
    expect(tree.product_category.parent_category).toMatchObject({
      id: ids.shirts,
      parent_category: { id: ids.men, parent_category: null },
    });
  });

  it("lists each category's products (published, in the request's channels) when fields asks for *products", async () => {
    const channel = await t.app.modules.salesChannel.getOrCreateDefault();
    const shirt = await createFixtureProduct(t, {
      title: "Oxford",
      status: "published",
      categories: [{ id: ids.shirts! }, { id: ids.men! }],
      sales_channels: [{ id: channel.id }],
      variants: [{ title: "M", size: "M", prices: [{ currency_code: "usd", amount: 100 }] }],
    });
    await createFixtureProduct(t, {
      title: "Draft Oxford",
      status: "draft",
      categories: [{ id: ids.shirts! }],
      sales_channels: [{ id: channel.id }],
      variants: [{ title: "M", size: "M", prices: [{ currency_code: "usd", amount: 100 }] }],
    });
    const byHandle = (
      await t.store.get(
        `/store/product-categories?handle=shirts&fields=${encodeURIComponent("*category_children, *products")}`,
      )
    ).json().product_categories[0];
    expect(byHandle.products.map((p: { id: string }) => p.id)).toEqual([shirt.id]);
    expect(byHandle.products[0]).toMatchObject({ title: "Oxford", handle: "oxford" });
    const all = (
      await t.store.get(`/store/product-categories?fields=${encodeURIComponent("*products")}&limit=100`)
    ).json().product_categories;
    expect(all.find((c: { id: string }) => c.id === ids.men).products.map((p: { id: string }) => p.id)).toEqual([
      shirt.id,
    ]);
    expect(all.find((c: { id: string }) => c.id === ids.linen).products).toEqual([]);
    expect((await t.store.get(`/store/product-categories/${ids.shirts}`)).json().product_category).not.toHaveProperty(
      "products",
    );
  });

  it("rejects bad input", async () => {
    for (const query of ["include_descendants_tree=perhaps", "limit=-2", "what=1"])
      expect((await t.store.get(`/store/product-categories?${query}`)).statusCode).toBe(400);
  });
});
