import { Type } from "@sinclair/typebox";
import { Id, MAX_LIMIT } from "@kasse/db";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ListAnswer, RetrieveQuery, listResponse } from "../../http/schemas";
import { ListRegions } from "../admin/regions";
import { RegionView } from "@kasse/modules/region";

const Params = Type.Object({ id: Id() });
/**
 * As the admin's, but without `limit` every region is listed (up to the largest page): storefronts
 * route every country to its region from this one unpaged request.
 */
const StoreListRegions = Type.Object(
  { ...ListRegions.properties, limit: Type.Integer({ minimum: 0, maximum: MAX_LIMIT, default: MAX_LIMIT }) },
  { additionalProperties: false },
);

/** Store regions: public reads (docs/CONTRACT.md). */
export default async function regions(app: App): Promise<void> {
  const service = app.modules.region;

  app.get(
    "/regions",
    { schema: { querystring: StoreListRegions, response: ListAnswer("regions", RegionView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const { items, count } = await service.list(filters, { limit, offset, order });
      return listResponse("regions", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.get(
    "/regions/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: Answer("region", RegionView) } },
    async (request) => {
      return { region: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );
}
