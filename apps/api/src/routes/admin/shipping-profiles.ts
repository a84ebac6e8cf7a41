import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { ShippingProfileCreate, ShippingProfileView } from "@kasse/modules/fulfillment";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListProfiles = ListQueryOf({ id: Id(), type: Code() }, { q: Type.Optional(Title()) });

/** Admin shipping profiles (docs/CONTRACT.md). */
export default async function shippingProfiles(app: App): Promise<void> {
  const fulfillment = app.modules.fulfillment;
  crudRoutes(app, {
    path: "/shipping-profiles",
    one: "shipping_profile",
    many: "shipping_profiles",
    view: ShippingProfileView,
    list: { query: ListProfiles, run: (filters, page) => fulfillment.listProfiles(filters, page) },
    retrieve: (id) => fulfillment.retrieveProfile(id),
    create: { body: ShippingProfileCreate, run: (body) => fulfillment.createProfile(body) },
    delete: (id) => fulfillment.deleteProfile(id),
  });
}
