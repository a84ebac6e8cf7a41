import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();

describe("admin notifications", () => {
  it("lists the outbox newest first with filters and paging; secret data is redacted; the default provider is log", async () => {
    const service = t.app.modules.notification;
    const first = await service.send({
      to: "n1@example.com",
      channel: "email",
      template: "auth.password_reset",
      data: { token: "s3cret-token", email: "n1@example.com" },
      secret_keys: ["token"],
    });
    const second = await service.send({
      to: "n2@example.com",
      channel: "feed",
      template: "order.placed",
      data: { order_id: "order_1" },
    });
    expect(first).toMatchObject({ provider_id: "log", status: "success" });

    const all = await t.admin.get("/admin/notifications");
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect(all.json().notifications.map((n: { id: string }) => n.id)).toEqual([second.id, first.id]);
    expect(all.body).not.toContain("s3cret-token");
    expect(all.json().notifications[1].data).toEqual({ token: "[redacted]", email: "n1@example.com" });

    expect(
      (await t.admin.get("/admin/notifications?channel=feed")).json().notifications.map((n: { id: string }) => n.id),
    ).toEqual([second.id]);
    expect((await t.admin.get("/admin/notifications?status[]=failure")).json().count).toBe(0);
    expect((await t.admin.get("/admin/notifications?to=n1@example.com&fields=status")).json().notifications).toEqual([
      { id: first.id, status: "success" },
    ]);
    expect(
      (await t.admin.get("/admin/notifications?limit=1&offset=1&order=created_at"))
        .json()
        .notifications.map((n: { id: string }) => n.id),
    ).toEqual([second.id]);
    expect((await t.admin.get(`/admin/notifications/${first.id}`)).json().notification.data.token).toBe("[redacted]");
    expect((await t.admin.get("/admin/notifications/noti_missing")).statusCode).toBe(404);
  });

  it("rejects bad filters with 400 and non-admins with 401/403", async () => {
    await expectInvalidData(t.admin, "/admin/notifications?", "status=bogus", "limit=-1", "order=data", "x=1");
    expect((await t.app.inject({ method: "GET", url: "/admin/notifications" })).statusCode).toBe(401);
    expect((await t.store.get("/admin/notifications", await t.customerHeaders("cus_1"))).statusCode).toBe(403);
  });
});
