import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { ReturnReasonCreate, ReturnReasonUpdate, ReturnReasonView } from "@kasse/modules/order";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListReasons = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin return reasons (Medusa's `/admin/return-reasons`): CRUD, soft delete. */
export default async function returnReasons(app: App): Promise<void> {
  const reasons = app.modules.returnReason;
  const operations = standardCrud(reasons, {
    query: ListReasons,
    create: ReturnReasonCreate,
    update: ReturnReasonUpdate,
  });
  crudRoutes(app, {
    path: "/return-reasons",
    one: "return_reason",
    many: "return_reasons",
    view: ReturnReasonView,
    ...operations,
  });
}
