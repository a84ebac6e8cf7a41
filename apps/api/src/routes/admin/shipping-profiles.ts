import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { ShippingProfileCreate, ShippingProfileView } from "@kasse/modules/fulfillment";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ArrayQuery, ListQuery } from "../../http/schemas";

const ListProfiles = Type.Object(
  { ...ListQuery, q: Type.Optional(Title()), id: Type.Optional(ArrayQuery(Id())), type: Type.Optional(ArrayQuery(Code())) },
  { additionalProperties: false },
);

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
