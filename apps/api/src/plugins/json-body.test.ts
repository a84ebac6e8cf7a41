import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../testing";

const t = useTestApp();
let admin: Record<string, string>;
beforeAll(async () => {
  admin = { ...(await t.adminHeaders()), "content-type": "application/json" };
});

const send = (method: "POST" | "DELETE", url: string, payload?: string) =>
  t.app.inject({ method, url, headers: admin, ...(payload === undefined ? {} : { payload }) });
const channelCount = async () => (await t.admin.get("/admin/sales-channels")).json().count as number;

describe("JSON bodies", () => {
  it("an empty body with content-type application/json is no body (as Medusa's js-sdk sends body-less POSTs and DELETEs)", async () => {
    const key = (await send("POST", "/admin/api-keys", JSON.stringify({ title: "k", type: "secret" }))).json().api_key;
    const revoked = await send("POST", `/admin/api-keys/${key.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().api_key.revoked_at).not.toBeNull();

    const channel = (await send("POST", "/admin/sales-channels", JSON.stringify({ name: "Gone" }))).json()
      .sales_channel;
    const deleted = await send("DELETE", `/admin/sales-channels/${channel.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: channel.id, object: "sales_channel", deleted: true });
  });

  it("a route that needs a body still answers 400 invalid_data to an empty one, and writes nothing", async () => {
    const before = await channelCount();
    const res = await send("POST", "/admin/sales-channels");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: "invalid_data", message: expect.any(String) });
    expect(await channelCount()).toBe(before);
  });

  it("still refuses malformed JSON, unknown fields on a body-less route, and prototype poisoning", async () => {
    const before = await channelCount();
    const malformed = await send("POST", "/admin/sales-channels", "{bad");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ type: "invalid_data", message: "Malformed JSON in request body" });

    const key = (await send("POST", "/admin/api-keys", JSON.stringify({ title: "k2", type: "secret" }))).json().api_key;
    const extra = await send("POST", `/admin/api-keys/${key.id}/revoke`, JSON.stringify({ now: true }));
    expect(extra.statusCode).toBe(400);
    expect(extra.json().type).toBe("invalid_data");

    const poisoned = await send("POST", "/admin/sales-channels", '{"name":"x","__proto__":{"admin":true}}');
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().type).toBe("invalid_data");
    expect(await channelCount()).toBe(before);
  });
});
