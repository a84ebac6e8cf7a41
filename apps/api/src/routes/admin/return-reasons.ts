import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { ReturnReasonCreate, ReturnReasonUpdate, ReturnReasonView } from "@kasse/modules/order";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListReasons = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin return reasons (Medusa's `/admin/return-reasons`): CRUD, soft delete. */
export default async function returnReasons(app: App): Promise<void> {
  const reasons = app.modules.returnReason;
  crudRoutes(app, {
    path: "/return-reasons",
    one: "return_reason",
    many: "return_reasons",
    view: ReturnReasonView,
    list: { query: ListReasons, run: (filters, page) => reasons.list(filters, page) },
    retrieve: (id) => reasons.retrieve(id),
    create: { body: ReturnReasonCreate, run: (body) => reasons.create(body) },
    update: { body: ReturnReasonUpdate, run: (id, body) => reasons.update(id, body) },
    delete: (id) => reasons.delete(id),
  });
}
