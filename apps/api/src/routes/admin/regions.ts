import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { RegionCreate, RegionUpdate, RegionView } from "@kasse/modules/region";
import type { App } from "../../app";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf, WholeListQuery } from "../../http/schemas";

/** Filters of region lists (Admin and Store). */
export const ListRegions = ListQueryOf(
  { id: Id(), name: Title(), currency_code: Code() },
  { q: Type.Optional(Title()) },
  WholeListQuery,
);

/** Admin regions: CRUD with countries (each in one region) and payment providers (docs/CONTRACT.md). */
export default async function regions(app: App): Promise<void> {
  const service = app.modules.region;
  const operations = standardCrud(service, { query: ListRegions, create: RegionCreate, update: RegionUpdate });
  crudRoutes(app, { path: "/regions", one: "region", many: "regions", view: RegionView, ...operations });
}
