import { Type } from "@sinclair/typebox";
import { Code, Id } from "@kasse/db";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, Filter, ListAnswer, ListQueryOf, RetrieveQuery } from "../../http/schemas";
import { NotificationView } from "@kasse/modules/notification";

const Params = Type.Object({ id: Id() });
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

  app.get(
    "/notifications",
    { schema: { querystring: ListNotifications, response: ListAnswer("notifications", NotificationView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const { items, count } = await service.list(filters, { limit, offset, order });
      return { notifications: project(items, parseFields(fields)), count, offset, limit };
    },
  );

  app.get(
    "/notifications/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: Answer("notification", NotificationView) } },
    async (request) => {
      return { notification: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );
}
