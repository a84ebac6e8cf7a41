import { Code, Id } from "@kasse/core";
import { PricePreferenceCreate, PricePreferenceUpdate, PricePreferenceView } from "@kasse/modules/pricing";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf, WholeListQuery } from "../../http/schemas";

const ListPricePreferences = ListQueryOf({ id: Id(), attribute: Code(), value: Code() }, {}, WholeListQuery);

/** Admin price preferences: whether a region's or currency's prices include tax (docs/CONTRACT.md). */
export default async function pricePreferences(app: App): Promise<void> {
  const service = app.modules.pricePreference;
  const operations = standardCrud(service, {
    query: ListPricePreferences,
    create: PricePreferenceCreate,
    update: PricePreferenceUpdate,
  });
  crudRoutes(app, {
    path: "/price-preferences",
    one: "price_preference",
    many: "price_preferences",
    view: PricePreferenceView,
    ...operations,
  });
}
