import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./testing";

// Two apps on two databases in one test process, as a test plays a second API process: the first
// database opened is the process's; the second app's requests must still run on its own, modules
// that read the ambient handle (sales channels) included, from the first hook to the answer.
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp();
}, 120_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

it("answers each app's requests from its own database", async () => {
  const created = await second.admin.post("/admin/sales-channels", { name: "Second only" });
  expect(created.statusCode).toBe(200);
  const id = created.json().sales_channel.id as string;
  expect((await second.admin.get(`/admin/sales-channels/${id}`)).json().sales_channel.name).toBe("Second only");
  expect((await first.admin.get(`/admin/sales-channels/${id}`)).statusCode).toBe(404);
  const names = (await second.admin.get("/admin/sales-channels?limit=100"))
    .json()
    .sales_channels.map((channel: { name: string }) => channel.name);
  expect(names).toContain("Second only");
});
