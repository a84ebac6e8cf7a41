import { Type } from "@sinclair/typebox";
import { Count } from "@kasse/core";
import type { App } from "../../app-type";
import { Fields, NoFields } from "../../http/schemas";

/**
 * Medusa's feature flags the dashboard reads. Kasse implements none of these features, so each
 * is off: view configurations (saved table layouts), RBAC roles, translations, the index engine
 * and response caching.
 */
const FEATURE_FLAGS = {
  view_configurations: false,
  rbac: false,
  translation: false,
  index_engine: false,
  caching: false,
} as const;

const FeatureFlags = Type.Object(
  {
    feature_flags: Type.Record(Type.String(), Type.Boolean(), {
      description: "Each feature the admin dashboard may show, and whether this server has it",
    }),
  },
  { description: "The server's feature flags" },
);
// `sidebar`, `topbar`, `settings.sidebar`, `order.list`, `inventory_item.details`, ...
const LayoutParams = Type.Object(
  { entity: Type.String({ maxLength: 64, pattern: "^[a-z][a-z_]*(\\.[a-z][a-z_]*)?$" }) },
  { additionalProperties: false },
);
const LayoutConfiguration = Type.Object(
  {
    personal_configuration: Type.Null(),
    default_configuration: Type.Null(),
    active_scope: Type.Literal("default"),
  },
  { description: "The saved layout of a dashboard view: Kasse stores none, so the dashboard's defaults apply" },
);
const LayoutList = Type.Object(
  { limit: Type.Optional(Count()), offset: Type.Optional(Count()), fields: Type.Optional(Fields()) },
  { additionalProperties: false },
);
const LayoutListView = Type.Object(
  {
    layout_configurations: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true })),
    count: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
  },
  { description: "Saved layouts (Kasse stores none)" },
);
const SearchIndexes = Type.Object(
  {
    search_indexes: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true })),
    enabled: Type.Boolean(),
  },
  { description: "Search indexes: Kasse searches its database directly and keeps no external index" },
);
const Plugins = Type.Object(
  { plugins: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })) },
  { description: "Admin dashboard plugins installed on the server (none)" },
);

/**
 * What Medusa's admin dashboard asks of the server on every page, beyond the commerce resources:
 * feature flags, saved table layouts, search indexes and installed plugins. Kasse has none of
 * these features, so each answers truthfully that it is off or empty.
 */
export default async function dashboardShell(app: App): Promise<void> {
  app.get(
    "/layouts/configurations",
    { schema: { querystring: LayoutList, response: { 200: LayoutListView } } },
    async (request) => ({
      layout_configurations: [],
      count: 0,
      offset: request.query.offset ?? 0,
      limit: request.query.limit ?? 0,
    }),
  );

  app.get(
    "/layouts/:entity/configuration",
    { schema: { params: LayoutParams, querystring: NoFields, response: { 200: LayoutConfiguration } } },
    async () => ({
      personal_configuration: null,
      default_configuration: null,
      active_scope: "default" as const,
    }),
  );

  app.get("/search-indexes", { schema: { querystring: NoFields, response: { 200: SearchIndexes } } }, async () => ({
    search_indexes: [],
    enabled: false,
  }));

  app.get("/plugins", { schema: { querystring: NoFields, response: { 200: Plugins } } }, async () => ({ plugins: [] }));
}

/**
 * `GET /admin/feature-flags`: the dashboard reads it on its login page, before anyone signs in, so
 * it is outside the admin guard (it tells nothing about the store).
 */
export async function featureFlags(app: App): Promise<void> {
  app.get("/feature-flags", { schema: { querystring: NoFields, response: { 200: FeatureFlags } } }, async () => ({
    feature_flags: { ...FEATURE_FLAGS },
  }));
}
