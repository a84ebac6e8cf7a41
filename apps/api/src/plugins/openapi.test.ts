import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing";
import { registeredOperations } from "../testing/operations";

const t = useTestApp();

/** Admin paths a non-admin calls: the invite is accepted with a registration token. */
const OUTSIDE_ADMIN_GUARD = ["POST /admin/invites/accept"];

type Operation = {
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
};

describe("the OpenAPI document", () => {
  it("describes every registered route: a success schema, the error answers, its security", () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const routes = registeredOperations(t.app);
    expect(routes.length).toBeGreaterThan(200);
    const problems: string[] = [];
    for (const { method, path } of routes) {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      const name = `${method} ${path}`;
      if (!operation) {
        problems.push(`${name}: not in the document`);
        continue;
      }
      const responses = operation.responses ?? {};
      const successes = Object.entries(responses).filter(([status]) => /^[23]\d\d$/.test(status));
      if (!successes.length) problems.push(`${name}: no success response`);
      for (const [status, response] of successes) {
        // A 2xx with a body has its schema; a redirect or an empty 201 says so with no content.
        if (
          status.startsWith("2") &&
          status !== "201" &&
          status !== "204" &&
          !response.content?.["application/json"]?.schema
        )
          problems.push(`${name}: ${status} has no schema`);
      }
      const expected = ["400", "429", "500"];
      if (path.includes("{")) expected.push("404");
      if (method === "POST") expected.push("409");
      if (path.startsWith("/admin/")) expected.push("401", "403");
      for (const status of expected) {
        const schema = responses[status]?.content?.["application/json"]?.schema as
          { properties?: Record<string, unknown>; required?: string[] } | undefined;
        if (!schema?.properties?.type || !schema.properties.message || !schema.required?.includes("type"))
          problems.push(`${name}: no ${status} {type, message}`);
      }
      if (!Array.isArray(operation.security)) problems.push(`${name}: no security`);
      else if (path.startsWith("/admin/") && !OUTSIDE_ADMIN_GUARD.includes(name)) {
        const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
        for (const scheme of ["bearer", "apiKey", "apiKeyQuery", "apiKeyBasic"])
          if (!schemes.includes(scheme)) problems.push(`${name}: security lacks ${scheme}`);
        if (operation.security.some((requirement) => Object.keys(requirement).length === 0))
          problems.push(`${name}: anonymous access declared`);
      } else if (
        path.startsWith("/store/") &&
        !operation.security.some((requirement) => "publishableKey" in requirement)
      )
        problems.push(`${name}: security lacks the publishable key`);
      for (const parameter of operation.parameters ?? []) {
        if (
          parameter.in === "query" &&
          (parameter.name === "limit" || parameter.name === "offset") &&
          parameter.required
        )
          problems.push(`${name}: ${parameter.name} marked required`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("declares a bearer token for the customer's own store routes and none for the public auth ones", () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    expect(doc.paths["/store/customers/me"]!.get!.security).toEqual([
      { bearer: [], publishableKey: [] },
      { bearer: [] },
    ]);
    expect(doc.paths["/store/customers/me"]!.get!.responses!["401"]).toBeDefined();
    expect(doc.paths["/auth/{actor_type}/emailpass"]!.post!.security).toEqual([]);
    expect(doc.paths["/auth/token/refresh"]!.post!.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/store/products"]!.get!.security).toContainEqual({});
  });

  it("describes the customer's order history (a Kasse extension) without the admin's fields", () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const history = doc.paths["/store/orders/{id}/changes"]!.get!;
    expect(history.parameters!.map((p) => p.name).sort()).toEqual(["change_type", "id", "limit", "offset"]);
    expect(history.security).toEqual([{ bearer: [], publishableKey: [] }, { bearer: [] }]);
    for (const status of ["200", "400", "401", "404"]) expect(history.responses![status]).toBeDefined();
    const answer = JSON.stringify(history.responses!["200"]);
    for (const field of ["change_type", "confirmed_at", "line_item_id", "unit_price"]) expect(answer).toContain(field);
    for (const field of ["internal_note", "created_by", "confirmed_by", "canceled_by", "requested_by", "metadata"])
      expect(answer).not.toContain(`"${field}"`);
  });
});

describe("the OpenAPI document's webhooks", () => {
  it("lists every event of the catalog with its payload schema and the Standard Webhooks headers", async () => {
    const { catalogEntries } = await import("@kasse/modules/event");
    const doc = t.app.swagger() as {
      webhooks?: Record<
        string,
        {
          post: {
            parameters: Array<{ name: string }>;
            requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
          };
        }
      >;
    };
    const names = catalogEntries().map((e) => e.name);
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...names].sort());
    for (const name of [
      "order.placed",
      "order.canceled",
      "order.completed",
      "order.fulfillment_created",
      "order.fulfillment_canceled",
      "shipment.created",
      "delivery.created",
      "order.return_requested",
      "order.return_received",
      "payment.captured",
      "payment.refunded",
      "customer.created",
      "customer.updated",
      "product.created",
      "product.updated",
      "product.deleted",
      "inventory-item.updated",
      "cart.created",
      "cart.updated",
      "auth.password_reset",
    ]) {
      const post = doc.webhooks![name]!.post;
      expect(post.parameters.map((p) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      const body = post.requestBody.content["application/json"]!.schema;
      expect(Object.keys(body.properties)).toEqual(["id", "type", "timestamp", "data"]);
      expect(body.properties.data).toMatchObject({ type: "object" });
    }
  });
});
