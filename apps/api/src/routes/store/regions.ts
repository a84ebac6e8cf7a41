import { Type } from "@sinclair/typebox";
import { MAX_LIMIT } from "@kasse/db";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { ListRegions } from "../admin/regions";
import { RegionView } from "@kasse/modules/region";

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
  crudRoutes(app, {
    path: "/regions",
    one: "region",
    many: "regions",
    view: RegionView,
    ...standardReads(app.modules.region, StoreListRegions),
  });
}
