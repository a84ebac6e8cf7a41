import { Type } from "@sinclair/typebox";
import { Code, CurrencyCode, Title } from "@kasse/db";
import { CurrencyUpdate, CurrencyView } from "@kasse/modules/currency";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ code: CurrencyCode() });
const ListCurrencies = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    code: Type.Optional(ArrayQuery(Code())),
    is_default: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Admin currencies: the seeded ISO 4217 list and the default currency. */
export default async function currencies(app: App): Promise<void> {
  const service = app.modules.currency;

  app.get("/currencies", { schema: { querystring: ListCurrencies, response: ListAnswer("currencies", CurrencyView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("currencies", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.get("/currencies/:code", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("currency", CurrencyView) } }, async (request) => {
    return { currency: project(await service.retrieve(request.params.code), parseFields(request.query.fields)) };
  });

  app.post("/currencies/:code", { schema: { params: Params, body: CurrencyUpdate, response: Answer("currency", CurrencyView) } }, async (request) => {
    return { currency: await service.update(request.params.code, request.body) };
  });
}
