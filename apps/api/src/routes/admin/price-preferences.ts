import { Code, Id } from "@kasse/db";
import { PricePreferenceCreate, PricePreferenceUpdate, PricePreferenceView } from "@kasse/modules/pricing";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListPricePreferences = ListQueryOf({ id: Id(), attribute: Code(), value: Code() });

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
