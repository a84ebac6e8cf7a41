import { Type } from "@sinclair/typebox";
import { Code, Id } from "@kasse/db";
import { PricePreferenceCreate, PricePreferenceUpdate, PricePreferenceView } from "@kasse/modules/pricing";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, RetrieveQuery, WholeListQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListPricePreferences = Type.Object(
  {
    ...WholeListQuery,
    id: Type.Optional(ArrayQuery(Id())),
    attribute: Type.Optional(ArrayQuery(Code())),
    value: Type.Optional(ArrayQuery(Code())),
  },
  { additionalProperties: false },
);

/** Admin price preferences: whether a region's or currency's prices include tax (docs/CONTRACT.md). */
export default async function pricePreferences(app: App): Promise<void> {
  const service = app.modules.pricePreference;

  app.get("/price-preferences", { schema: { querystring: ListPricePreferences, response: ListAnswer("price_preferences", PricePreferenceView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("price_preferences", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/price-preferences", { schema: { body: PricePreferenceCreate, response: Answer("price_preference", PricePreferenceView) } }, async (request) => {
    return { price_preference: await service.create(request.body) };
  });

  app.get("/price-preferences/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("price_preference", PricePreferenceView) } }, async (request) => {
    return { price_preference: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/price-preferences/:id", { schema: { params: Params, body: PricePreferenceUpdate, response: Answer("price_preference", PricePreferenceView) } }, async (request) => {
    return { price_preference: await service.update(request.params.id, request.body) };
  });

  app.delete("/price-preferences/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "price_preference", deleted: true as const };
  });
}
