import { Type } from "@sinclair/typebox";
import { Code, CurrencyCode, Title } from "@kasse/core";
import { CurrencyUpdate, CurrencyView } from "@kasse/modules/currency";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const Params = Type.Object({ code: CurrencyCode() });
const ListCurrencies = ListQueryOf(
  { code: Code() },
  { q: Type.Optional(Title()), is_default: Type.Optional(Type.Boolean()) },
);

/** Admin currencies: the seeded ISO 4217 list and the default currency. */
export default async function currencies(app: App): Promise<void> {
  const service = app.modules.currency;
  crudRoutes(app, {
    path: "/currencies",
    one: "currency",
    many: "currencies",
    view: CurrencyView,
    params: Params,
    ...standardReads(service, ListCurrencies),
    update: { body: CurrencyUpdate, run: (code, body) => service.update(code, body) },
  });
}
