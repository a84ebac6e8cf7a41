import type { FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";

/** The OpenAPI document, generated from the route schemas, and a UI for it at `/docs`. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: "Kasse", description: "Commerce backend speaking Medusa v2's Admin, Store and Auth APIs", version: "0.1.0" },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          apiKey: { type: "apiKey", in: "header", name: "x-service-access-token" },
          publishableKey: { type: "apiKey", in: "header", name: "x-publishable-api-key" },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}
