import { Type } from "@sinclair/typebox";
import { Code, Id } from "@kasse/db";
import { PricePreferenceCreate, PricePreferenceUpdate, PricePreferenceView } from "@kasse/modules/pricing";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ArrayQuery, ListQuery } from "../../http/schemas";

const ListPricePreferences = Type.Object(
  {
    ...ListQuery,
    id: Type.Optional(ArrayQuery(Id())),
    attribute: Type.Optional(ArrayQuery(Code())),
    value: Type.Optional(ArrayQuery(Code())),
  },
  { additionalProperties: false },
);

/** Admin price preferences: whether a region's or currency's prices include tax (docs/CONTRACT.md). */
export default async function pricePreferences(app: App): Promise<void> {
  const service = app.modules.pricePreference;
  crudRoutes(app, {
    path: "/price-preferences",
    one: "price_preference",
    many: "price_preferences",
    view: PricePreferenceView,
    list: { query: ListPricePreferences, run: (filters, page) => service.list(filters, page) },
    retrieve: (id) => service.retrieve(id),
    create: { body: PricePreferenceCreate, run: (body) => service.create(body) },
    update: { body: PricePreferenceUpdate, run: (id, body) => service.update(id, body) },
    delete: (id) => service.delete(id),
  });
}
