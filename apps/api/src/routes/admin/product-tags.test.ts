import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin product tags and types", () => {
  for (const [path, key, prefix] of [
    ["/admin/product-tags", "product_tag", "ptag_"],
    ["/admin/product-types", "product_type", "ptyp_"],
  ] as const) {
    it(`${path}: CRUD with unique values`, async () => {
      const created = await t.admin.post(path, { value: "summer" });
      expect(created.statusCode).toBe(200);
      const record = created.json()[key];
      expect(record).toMatchObject({ value: "summer" });
      expect(record.id.startsWith(prefix)).toBe(true);
      expect((await t.admin.post(path, { value: "summer" })).statusCode).toBe(409);
      await t.admin.post(path, { value: "winter" });
      expect((await t.admin.get(`${path}/${record.id}`)).json()[key].value).toBe("summer");
      expect((await t.admin.get(`${path}?q=wint`)).json()).toMatchObject({
        count: 1,
        [`${key}s`]: [expect.objectContaining({ value: "winter" })],
      });
      expect(
        (await t.admin.get(`${path}?value=summer&value=winter&order=-value`))
          .json()
          [`${key}s`].map((r: { value: string }) => r.value),
      ).toEqual(["winter", "summer"]);
      expect((await t.admin.post(`${path}/${record.id}`, { value: "spring" })).json()[key].value).toBe("spring");
      expect((await t.admin.post(`${path}/${record.id}`, { value: "winter" })).statusCode).toBe(409);

      const link = key === "product_tag" ? { tags: [{ id: record.id }] } : { type_id: record.id };
      const product = (
        await t.admin.post("/admin/products", {
          title: `Linked ${key}`,
          options: [{ title: "Size", values: ["S"] }],
          ...link,
        })
      ).json().product;
      expect((await t.admin.delete(`${path}/${record.id}`)).json()).toEqual({
        id: record.id,
        object: key,
        deleted: true,
      });
      expect((await t.admin.get(`${path}/${record.id}`)).statusCode).toBe(404);
      const after = (await t.admin.get(`/admin/products/${product.id}`)).json().product;
      if (key === "product_tag") expect(after.tags).toEqual([]);
      else expect(after).toMatchObject({ type_id: null, type: null });
      expect((await t.admin.post(path, { value: "spring" })).statusCode).toBe(200);

      for (const body of [{}, { value: "" }, { value: 1 }, { value: "x", y: 1 }]) {
        const res = await t.admin.post(path, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().type).toBe("invalid_data");
      }
      expect((await t.admin.post(`${path}/missing`, { value: "x" })).statusCode).toBe(404);
      expect((await t.app.inject({ method: "GET", url: path })).statusCode).toBe(401);
    });
  }
});
