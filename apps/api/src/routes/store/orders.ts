import { Type, type Static } from "@sinclair/typebox";
import { errors, Id } from "@kasse/db";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";
import { OrderDetailView, orderView, orderViews } from "../../orders/view";

const Params = Type.Object({ id: Id() });
const ListOwnOrders = Type.Object(ListQuery, { additionalProperties: false });

/** The caller's customer id, if the request carries a customer token. */
const customerOf = (request: FastifyRequest) => (request.auth?.actor_type === "customer" && request.auth.actor_id ? request.auth.actor_id : null);

/**
 * Store orders (docs/CONTRACT.md "Access to carts and orders"): a customer's order history, and one
 * order by id. A guest order (no customer) is reachable by its id alone; a customer's order only
 * with that customer's token: anyone else gets 404, as if it did not exist.
 */
export default async function orders(app: App): Promise<void> {
  const { order: service } = app.modules;
  const customerOnly = { onRequest: app.guards.customer };

  const listOwn = async (customerId: string, query: Static<typeof ListOwnOrders>) => {
    const { limit, offset, order, fields } = query;
    const { items, count } = await service.list({ customer_id: [customerId] }, { limit, offset, order });
    return listResponse("orders", project(await orderViews(app.modules, items, "store"), parseFields(fields)), count, { limit, offset });
  };
  app.get("/orders", { ...customerOnly, schema: { querystring: ListOwnOrders, response: ListAnswer("orders", OrderDetailView) } }, (request) => listOwn(customerOf(request)!, request.query));
  app.get("/customers/me/orders", { ...customerOnly, schema: { querystring: ListOwnOrders, response: ListAnswer("orders", OrderDetailView) } }, (request) => listOwn(customerOf(request)!, request.query));

  app.get("/orders/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("order", OrderDetailView) } }, async (request) => {
    const found = await service.retrieve(request.params.id);
    if (found.customer_id !== null && found.customer_id !== customerOf(request)) throw errors.notFound(`Order with id: ${request.params.id} was not found`);
    return { order: project(await orderView(app.modules, found, "store"), parseFields(request.query.fields)) };
  });
}
