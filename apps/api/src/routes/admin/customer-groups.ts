import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { CustomerGroupCreate, CustomerGroupResponse, CustomerGroupUpdate } from "@kasse/modules/customer";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, DeleteResponse, ListAnswer, ListQuery, RetrieveQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListGroups = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    name: Type.Optional(ArrayQuery(Title())),
  },
  { additionalProperties: false },
);
const Ids = Type.Array(Id({ minLength: 1 }), { maxItems: 1000 });
/** The contract's `{customer_ids}`. */
const Members = Type.Object({ customer_ids: Ids }, { additionalProperties: false });
/** The contract's `{customer_ids}` or Medusa's `{add, remove}` (docs/CONTRACT.md "Accepted alternatives"). */
const MembersChange = Type.Union([Members, Type.Object({ add: Type.Optional(Ids), remove: Type.Optional(Ids) }, { additionalProperties: false, minProperties: 1 })]);
const One = { 200: Type.Object({ customer_group: CustomerGroupResponse }) };

/** Admin customer groups: CRUD and membership (docs/CONTRACT.md). */
export default async function customerGroups(app: App): Promise<void> {
  const service = app.modules.customer;

  app.get("/customer-groups", { schema: { querystring: ListGroups, response: ListAnswer("customer_groups", CustomerGroupResponse) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.listGroups(filters, { limit, offset, order });
    return { customer_groups: project(items, parseFields(fields)), count, offset, limit };
  });

  app.post("/customer-groups", { schema: { body: CustomerGroupCreate, response: One } }, async (request) => {
    return { customer_group: await service.createGroup(request.body, { created_by: request.auth!.actor_id }) };
  });

  app.get("/customer-groups/:id", { schema: { params: Params, querystring: RetrieveQuery, response: One } }, async (request) => {
    return { customer_group: project(await service.retrieveGroup(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/customer-groups/:id", { schema: { params: Params, body: CustomerGroupUpdate, response: One } }, async (request) => {
    return { customer_group: await service.updateGroup(request.params.id, request.body) };
  });

  app.delete("/customer-groups/:id", { schema: { params: Params, response: { 200: DeleteResponse } } }, async (request) => {
    await service.deleteGroup(request.params.id);
    return { id: request.params.id, object: "customer_group", deleted: true as const };
  });

  app.post("/customer-groups/:id/customers", { schema: { params: Params, body: MembersChange, response: One } }, async (request) => {
    const body = request.body;
    const change = "customer_ids" in body ? { add: body.customer_ids } : body;
    return { customer_group: await service.updateGroupCustomers(request.params.id, change, { created_by: request.auth!.actor_id }) };
  });

  app.delete("/customer-groups/:id/customers", { schema: { params: Params, body: Members, response: One } }, async (request) => {
    return { customer_group: await service.updateGroupCustomers(request.params.id, { remove: request.body.customer_ids }) };
  });
}
