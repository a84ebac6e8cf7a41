import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { RefundReasonCreate, RefundReasonUpdate, RefundReasonView } from "@kasse/modules/payment";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListReasons = ListQueryOf({ id: Id(), code: Code() }, { q: Type.Optional(Title()) });

/** Admin refund reasons (Medusa's `/admin/refund-reasons`): CRUD, soft delete; a refund names one with `refund_reason_id`. */
export default async function refundReasons(app: App): Promise<void> {
  crudRoutes(app, {
    path: "/refund-reasons",
    one: "refund_reason",
    many: "refund_reasons",
    view: RefundReasonView,
    ...standardCrud(app.modules.refundReason, {
      query: ListReasons,
      create: RefundReasonCreate,
      update: RefundReasonUpdate,
    }),
  });
}
