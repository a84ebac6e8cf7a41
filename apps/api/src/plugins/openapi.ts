import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { OpenAPIV3_1 } from "openapi-types";
import { openApiWebhooks } from "@kasse/modules/event";
import { errorResponses, securityOf } from "./openapi-operations";
import { deferYaml } from "./deferred-yaml";

/**
 * The OpenAPI document, generated from the route schemas, and a UI for it at `/docs`. What every
 * operation shares is added here, in one `onRoute` hook: its security and its error answers (see
 * `openapi-operations.ts`). Each route declares its own success response.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook("onRoute", (route) => {
    if (isHidden(route)) {
      route.schema = { ...route.schema, hide: true } as FastifySchema;
      return;
    }
    const schema: FastifySchema & { security?: unknown } = route.schema ?? {};
    route.schema = {
      ...schema,
      security: schema.security ?? securityOf(route, app.guards),
      response: { ...errorResponses(route, app.guards), ...(schema.response as object | undefined) },
    } as FastifySchema;
  });

  deferYaml();
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Kasse",
        description:
          "Commerce backend speaking Medusa v2's Admin, Store and Auth APIs. Money amounts (marked `x-money`) are integers in minor units here; the same API under `MEDUSA_BASE_PATH` (default `/medusa`) takes and answers them in major units, as Medusa does.",
        version: "0.1.0",
      },
      // What webhook endpoints (`/admin/webhooks`) receive: one signed POST per event of the catalog.
      webhooks: openApiWebhooks() as Record<string, OpenAPIV3_1.PathItemObject>,
      components: {
        securitySchemes: {
          bearer: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description:
              "A token from `/auth/{actor_type}/{provider}`: a user's for `/admin`, a customer's for the store",
          },
          apiKey: {
            type: "apiKey",
            in: "header",
            name: "x-service-access-token",
            description: "A secret API key (`sk_…`), admin only",
          },
          apiKeyQuery: {
            type: "apiKey",
            in: "query",
            name: "api_token",
            description: "A secret API key (`sk_…`) in the query string, admin only",
          },
          apiKeyBasic: {
            type: "http",
            scheme: "basic",
            description: "A secret API key (`sk_…`) as the Basic user name, with no password; admin only",
          },
          publishableKey: {
            type: "apiKey",
            in: "header",
            name: "x-publishable-api-key",
            description:
              "A publishable key (`pk_…`): the sales channels a storefront sees; without it, the default channel",
          },
        },
      },
    },
    // A query parameter with a default may be left out: it is not required, whatever the validator's schema says.
    transform: ({ schema, url }) => ({ schema: optionalDefaults(schema), url }),
  });
  // swagger-ui's own logo, read here: left to the plugin, an asynchronous read a start waited for (tens of ms on a busy machine).
  const logo = {
    type: "image/svg+xml",
    content: readFileSync(createRequire(import.meta.url).resolve("@fastify/swagger-ui/static/logo.svg")),
  };
  await app.register(swaggerUi, { routePrefix: "/docs", logo });
}

// The UI at `/docs`, CORS preflight catch-alls and bull-board's pages (`/admin/queues`, HTML and its own API) are not the API.
const isHidden = (route: RouteOptions) =>
  (route.schema as { hide?: boolean } | undefined)?.hide === true ||
  route.url === "*" ||
  route.url.startsWith("/docs") ||
  route.url.startsWith("/admin/queues");

function optionalDefaults(schema: FastifySchema | undefined): FastifySchema {
  const query = schema?.querystring as
    { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!schema || !query?.properties || !query.required) return schema ?? {};
  const required = query.required.filter((name) => query.properties![name]?.default === undefined);
  return { ...schema, querystring: { ...query, required } };
}
