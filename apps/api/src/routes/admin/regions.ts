import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { createRegion, updateRegion } from "@kasse/flows";
import { RegionCreate, RegionView } from "@kasse/modules/region";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf, WholeListQuery } from "../../http/schemas";

/** Filters of region lists (Admin and Store). */
export const ListRegions = ListQueryOf(
  { id: Id(), name: Title(), currency_code: Code() },
  { q: Type.Optional(Title()) },
  WholeListQuery,
);

// Medusa's region form sends whether the region's prices include tax with the region.
const RegionCreateBody = Type.Object(
  { ...RegionCreate.properties, is_tax_inclusive: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const RegionUpdateBody = Type.Partial(RegionCreateBody, { additionalProperties: false });

/**
 * Admin regions: CRUD with countries (each in one region) and payment providers (docs/CONTRACT.md).
 * Create and update also take Medusa's `is_tax_inclusive` (the region's price preference), so they
 * run as sagas over region and pricing.
 */
export default async function regions(app: App): Promise<void> {
  const service = app.modules.region;
  crudRoutes(app, {
    path: "/regions",
    one: "region",
    many: "regions",
    view: RegionView,
    ...standardCrud(
      {
        ...service,
        create: async (body) => service.retrieve(await createRegion(app.infra.engine, app.modules, body)),
        update: async (id, update) => service.retrieve(await updateRegion(app.infra.engine, app.modules, id, update)),
      },
      { query: ListRegions, create: RegionCreateBody, update: RegionUpdateBody },
    ),
  });
}
