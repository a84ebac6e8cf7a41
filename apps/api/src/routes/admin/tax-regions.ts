import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { TaxRegionCreate, TaxRegionView } from "@kasse/modules/tax";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListTaxRegions = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    country_code: Type.Optional(ArrayQuery(Code())),
    province_code: Type.Optional(ArrayQuery(Code())),
    parent_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

/** Admin tax regions: a country or province with its default rate (docs/CONTRACT.md). */
export default async function taxRegions(app: App): Promise<void> {
  const service = app.modules.tax;

  app.get("/tax-regions", { schema: { querystring: ListTaxRegions, response: ListAnswer("tax_regions", TaxRegionView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("tax_regions", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/tax-regions", { schema: { body: TaxRegionCreate, response: Answer("tax_region", TaxRegionView) } }, async (request) => {
    return { tax_region: await service.create(request.body, request.auth?.actor_id ?? null) };
  });

  app.get("/tax-regions/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("tax_region", TaxRegionView) } }, async (request) => {
    return { tax_region: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.delete("/tax-regions/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "tax_region", deleted: true as const };
  });
}
