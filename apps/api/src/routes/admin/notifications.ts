import { Type } from "@sinclair/typebox";
import { Code, Id } from "@kasse/core";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { Filter, ListQueryOf } from "../../http/schemas";
import { NotificationView } from "@kasse/modules/notification";

const Status = Type.Union([Type.Literal("pending"), Type.Literal("success"), Type.Literal("failure")]);
const ListNotifications = ListQueryOf({
  id: Id(),
  to: Filter("email"),
  channel: Code(),
  template: Code(),
  status: Status,
});

/** Admin notifications: the outbox, newest first (secret data such as reset tokens shows as `[redacted]`). */
export default async function notifications(app: App): Promise<void> {
  const service = app.modules.notification;
  crudRoutes(app, {
    path: "/notifications",
    one: "notification",
    many: "notifications",
    view: NotificationView,
    ...standardReads(service, ListNotifications),
  });
}
