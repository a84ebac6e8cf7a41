import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { TaxRateView } from "@kasse/modules/tax";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
const ListTaxRates = ListQueryOf(
  { id: Id(), tax_region_id: Id(), code: Code() },
  { q: Type.Optional(Title()), is_default: Type.Optional(Type.Boolean()) },
);

/** Admin tax rates (Medusa's `GET /admin/tax-rates`, `GET /admin/tax-rates/{id}`): the rates of every tax region. */
export default async function taxRates(app: App): Promise<void> {
  const service = app.modules.tax;
  crudRoutes(app, {
    path: "/tax-rates",
    one: "tax_rate",
    many: "tax_rates",
    view: TaxRateView,
    params: Params,
    list: { query: ListTaxRates, run: (filters, page) => service.listRates(filters, page) },
    retrieve: (id) => service.retrieveRate(id),
  });
}
