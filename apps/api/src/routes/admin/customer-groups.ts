import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import {
  CustomerGroupCreate,
  CustomerGroupResponse,
  CustomerGroupUpdate,
  CustomerResponse,
} from "@kasse/modules/customer";
import type { App } from "../../app-type";
import { parseFields, project, wants, type FieldSelection } from "../../http/fields";
import { toArray } from "../../http/query";
import {
  ArrayQuery,
  DeleteResponse,
  ListAnswer,
  ListQuery,
  RetrieveQuery,
  IdParams,
  deleted,
} from "../../http/schemas";

const ListGroups = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    name: Type.Optional(ArrayQuery(Title())),
    // Medusa's nested filter: `customers[id]=cus_1` (or several) finds the groups they belong to.
    customers: Type.Optional(
      Type.Object({ id: Type.Union([Id(), ArrayQuery(Id())]) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
/** A group with its members, when `fields` names `customers` (`+customers.id`, `*customers`). */
const GroupView = Type.Partial(
  Type.Object({ ...CustomerGroupResponse.properties, customers: Type.Array(CustomerResponse) }),
);
const Ids = Type.Array(Id({ minLength: 1 }), { maxItems: 1000 });
/** The contract's `{customer_ids}`. */
const Members = Type.Object({ customer_ids: Ids }, { additionalProperties: false });
/** The contract's `{customer_ids}` or Medusa's `{add, remove}` (docs/CONTRACT.md "Accepted alternatives"). */
const MembersChange = Type.Union([
  Members,
  Type.Object(
    { add: Type.Optional(Ids), remove: Type.Optional(Ids) },
    { additionalProperties: false, minProperties: 1 },
  ),
]);
const One = { 200: Type.Object({ customer_group: GroupView }) };

/** Admin customer groups: CRUD and membership (docs/CONTRACT.md). */
export default async function customerGroups(app: App): Promise<void> {
  const service = app.modules.customer;

  /** Adds `customers` when the selection names them: member ids in one query, records in one more if more than ids is asked. */
  async function withMembers<G extends { id: string }>(
    groups: G[],
    selection: FieldSelection,
  ): Promise<Array<G & { customers?: Array<{ id: string }> }>> {
    if (!wants(selection, "customers")) return groups;
    const members = await service.memberIds(groups.map((g) => g.id));
    const idsOnly = [...selection.named]
      .filter((n) => n === "customers" || n.startsWith("customers."))
      .every((n) => n === "customers.id");
    const allIds = [...new Set([...members.values()].flat())];
    const records =
      idsOnly || allIds.length === 0
        ? undefined
        : new Map(
            (await service.list({ id: allIds }, { limit: allIds.length, offset: 0 })).items.map((c) => [c.id, c]),
          );
    return groups.map((g) => ({ ...g, customers: (members.get(g.id) ?? []).map((id) => records?.get(id) ?? { id }) }));
  }

  app.get(
    "/customer-groups",
    { schema: { querystring: ListGroups, response: ListAnswer("customer_groups", GroupView) } },
    async (request) => {
      const { limit, offset, order, fields, customers, ...filters } = request.query;
      const customer_id = customers === undefined ? undefined : toArray(customers.id);
      const selection = parseFields(fields);
      const { items, count } = await service.listGroups({ ...filters, customer_id }, { limit, offset, order });
      return { customer_groups: project(await withMembers(items, selection), selection), count, offset, limit };
    },
  );

  app.post("/customer-groups", { schema: { body: CustomerGroupCreate, response: One } }, async (request) => {
    return { customer_group: await service.createGroup(request.body, { created_by: request.auth!.actor_id }) };
  });

  app.get(
    "/customer-groups/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => {
      const selection = parseFields(request.query.fields);
      const [group] = await withMembers([await service.retrieveGroup(request.params.id)], selection);
      return { customer_group: project(group!, selection) };
    },
  );

  app.post(
    "/customer-groups/:id",
    { schema: { params: IdParams, body: CustomerGroupUpdate, response: One } },
    async (request) => {
      return { customer_group: await service.updateGroup(request.params.id, request.body) };
    },
  );

  app.delete(
    "/customer-groups/:id",
    { schema: { params: IdParams, response: { 200: DeleteResponse } } },
    async (request) => {
      await service.deleteGroup(request.params.id);
      return deleted(request.params.id, "customer_group");
    },
  );

  app.post(
    "/customer-groups/:id/customers",
    { schema: { params: IdParams, body: MembersChange, response: One } },
    async (request) => {
      const body = request.body;
      const change = "customer_ids" in body ? { add: body.customer_ids } : body;
      return {
        customer_group: await service.updateGroupCustomers(request.params.id, change, {
          created_by: request.auth!.actor_id,
        }),
      };
    },
  );

  app.delete(
    "/customer-groups/:id/customers",
    { schema: { params: IdParams, body: Members, response: One } },
    async (request) => {
      return {
        customer_group: await service.updateGroupCustomers(request.params.id, { remove: request.body.customer_ids }),
      };
    },
  );
}
