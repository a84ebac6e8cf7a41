import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { TaxRateView } from "@kasse/modules/tax";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

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

  app.get("/tax-rates", { schema: { querystring: ListTaxRates, response: ListAnswer("tax_rates", TaxRateView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.listRates(filters, { limit, offset, order });
    return listResponse("tax_rates", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.get("/tax-rates/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("tax_rate", TaxRateView) } }, async (request) => {
    return { tax_rate: project(await service.retrieveRate(request.params.id), parseFields(request.query.fields)) };
  });
}
