import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../testing";

// Paging through a real list route (the reference resource), on PostgreSQL and on PGlite.
const t = useTestApp();
beforeAll(async () => {
  for (let i = 0; i < 20; i++) {
    const res = await t.admin.post("/admin/sales-channels", { name: `Channel ${String(i).padStart(2, "0")}` });
    expect(res.statusCode).toBe(200);
  }
});

const list = (query: string) => t.admin.get(`/admin/sales-channels?${query}`);

describe("list paging", () => {
  it("defaults to limit 15, offset 0, with the total count", async () => {
    const res = await list("");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ limit: 15, offset: 0, count: 20 });
    expect(res.json().sales_channels).toHaveLength(15);
  });

  it("pages with limit and offset without gaps or repeats", async () => {
    const first = (await list("limit=8&order=name")).json().sales_channels.map((c: { name: string }) => c.name);
    const second = (await list("limit=8&offset=8&order=name"))
      .json()
      .sales_channels.map((c: { name: string }) => c.name);
    const third = await list("limit=8&offset=16&order=name");
    expect(third.json()).toMatchObject({ limit: 8, offset: 16, count: 20 });
    const all = [...first, ...second, ...third.json().sales_channels.map((c: { name: string }) => c.name)];
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => `Channel ${String(i).padStart(2, "0")}`));
  });

  it("accepts limit 1000 and limit 0", async () => {
    expect((await list("limit=1000")).json()).toMatchObject({ limit: 1000, count: 20 });
    const none = await list("limit=0");
    expect(none.json()).toMatchObject({ limit: 0, count: 20, sales_channels: [] });
  });

  it("answers limit 1001, negative or non-numeric paging with 400 invalid_data", async () => {
    for (const query of ["limit=1001", "limit=-1", "offset=-1", "limit=ten", "limit=1.5", "offset=x"]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(typeof res.json().message).toBe("string");
    }
  });

  it("answers an offset past the end with an empty page and the count", async () => {
    expect((await list("offset=100")).json()).toMatchObject({ sales_channels: [], count: 20, offset: 100 });
  });
});
