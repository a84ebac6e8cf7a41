import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { RegionCreate, RegionUpdate, RegionView } from "@kasse/modules/region";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, RetrieveQuery, WholeListQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
/** Filters of region lists (Admin and Store). */
export const ListRegions = Type.Object(
  {
    ...WholeListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    name: Type.Optional(ArrayQuery(Title())),
    currency_code: Type.Optional(ArrayQuery(Code())),
  },
  { additionalProperties: false },
);

/** Admin regions: CRUD with countries (each in one region) and payment providers (docs/CONTRACT.md). */
export default async function regions(app: App): Promise<void> {
  const service = app.modules.region;

  app.get("/regions", { schema: { querystring: ListRegions, response: ListAnswer("regions", RegionView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("regions", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/regions", { schema: { body: RegionCreate, response: Answer("region", RegionView) } }, async (request) => {
    return { region: await service.create(request.body) };
  });

  app.get("/regions/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("region", RegionView) } }, async (request) => {
    return { region: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/regions/:id", { schema: { params: Params, body: RegionUpdate, response: Answer("region", RegionView) } }, async (request) => {
    return { region: await service.update(request.params.id, request.body) };
  });

  app.delete("/regions/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "region", deleted: true as const };
  });
}
