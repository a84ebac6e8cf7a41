import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { ShippingOptionTypeCreate, ShippingOptionTypeUpdate, ShippingOptionTypeView } from "@kasse/modules/fulfillment";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListTypes = ListQueryOf({ id: Id(), code: Code(), label: Title() }, { q: Type.Optional(Title()) });

/** Admin shipping option types (Medusa's `/admin/shipping-option-types`): CRUD, soft delete. */
export default async function shippingOptionTypes(app: App): Promise<void> {
  crudRoutes(app, {
    path: "/shipping-option-types",
    one: "shipping_option_type",
    many: "shipping_option_types",
    view: ShippingOptionTypeView,
    ...standardCrud(app.modules.shippingOptionType, {
      query: ListTypes,
      create: ShippingOptionTypeCreate,
      update: ShippingOptionTypeUpdate,
    }),
  });
}
