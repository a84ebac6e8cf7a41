import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { SYSTEM_TAX_PROVIDER, TaxRegionCreate, TaxRegionView } from "@kasse/modules/tax";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { providerPage } from "../../http/provider-list";
import { ListAnswer, ListQueryOf } from "../../http/schemas";

const ListProviders = ListQueryOf({ id: Id() }, { is_enabled: Type.Optional(Type.Boolean()) });
const ProviderView = Type.Partial(Type.Object({ id: Type.String(), is_enabled: Type.Boolean() }));
const ListTaxRegions = ListQueryOf(
  { id: Id(), country_code: Code(), province_code: Code(), parent_id: Id() },
  { q: Type.Optional(Title()) },
);

/** Admin tax regions: a country or province with its default rate (docs/CONTRACT.md). */
export default async function taxRegions(app: App): Promise<void> {
  const service = app.modules.tax;
  crudRoutes(app, {
    path: "/tax-regions",
    one: "tax_region",
    many: "tax_regions",
    view: TaxRegionView,
    ...standardReads(service, ListTaxRegions),
    // The creating admin is recorded on the region and its default rate.
    create: { body: TaxRegionCreate, run: (body, request) => service.create(body, request.auth?.actor_id ?? null) },
    delete: (id) => service.delete(id),
  });

  // Medusa's tax region form picks its provider from this list (`sdk.admin.taxProvider.list()`).
  app.get(
    "/tax-providers",
    { schema: { querystring: ListProviders, response: ListAnswer("tax_providers", ProviderView) } },
    async (request) => providerPage("tax_providers", [SYSTEM_TAX_PROVIDER], request.query),
  );
}
