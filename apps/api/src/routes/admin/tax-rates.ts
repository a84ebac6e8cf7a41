import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { TaxRateView } from "@kasse/modules/tax";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ArrayQuery, ListQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
const ListTaxRates = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    tax_region_id: Type.Optional(ArrayQuery(Id())),
    code: Type.Optional(ArrayQuery(Code())),
    is_default: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
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
