import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { normalizeRange, toDate } from "@kasse/db";
import {
  AddressCreate,
  AddressUpdate,
  CustomerCreate,
  CustomerResponse,
  CustomerUpdate,
  AddressResponse,
} from "@kasse/modules/customer";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { parseFields, project } from "../../http/fields";
import {
  Answer,
  DeleteResponse,
  Filter,
  ListAnswer,
  ListQuery,
  ListQueryOf,
  listResponse,
  RangeQuery,
  RetrieveQuery,
  ChildParams,
  IdParams,
  deleted,
} from "../../http/schemas";
import { OrderSummaryResponse } from "@kasse/modules/order";
import { customerWrites, removeCustomerAccountWorkflow } from "@kasse/flows";

const AddressParams = ChildParams("address_id");
const ListCustomers = ListQueryOf(
  { id: Id(), email: Filter("email"), groups: Id() },
  {
    q: Type.Optional(Title()),
    has_account: Type.Optional(Type.Boolean()),
    created_at: Type.Optional(RangeQuery()),
    updated_at: Type.Optional(RangeQuery()),
  },
);
const One = { 200: Type.Object({ customer: CustomerResponse }) };
/** `GET /admin/customers/{id}` also carries the customer's order summaries (docs/CONTRACT.md). */
const WithOrders = {
  200: Type.Object({
    customer: Type.Object({ ...CustomerResponse.properties, orders: Type.Optional(Type.Array(OrderSummaryResponse)) }),
  }),
};
const Ids = Type.Array(Id({ minLength: 1 }), { maxItems: 1000 });
/** Medusa's `{add, remove}` of group ids (`sdk.admin.customer.batchCustomerGroups`). */
const GroupsChange = Type.Object(
  { add: Type.Optional(Ids), remove: Type.Optional(Ids) },
  { additionalProperties: false, minProperties: 1 },
);
const DeletedAddress = Type.Object({
  ...DeleteResponse.properties,
  parent: Type.Object({ customer: CustomerResponse }),
});

/**
 * Admin customers: list, create, retrieve, update, delete, and their addresses (docs/CONTRACT.md).
 * Deleting a customer also ends its sign-in (the remove-customer-account workflow).
 */
export default async function customers(app: App): Promise<void> {
  const service = app.modules.customer;

  crudRoutes(app, {
    path: "/customers",
    one: "customer",
    many: "customers",
    view: CustomerResponse,
    list: {
      query: ListCustomers,
      run: ({ created_at, updated_at, ...filters }, page) =>
        service.list(
          {
            ...filters,
            created_at: created_at === undefined ? undefined : normalizeRange(created_at, toDate),
            updated_at: updated_at === undefined ? undefined : normalizeRange(updated_at, toDate),
          },
          page,
        ),
    },
    create: {
      body: CustomerCreate,
      run: (body, request) =>
        customerWrites.create(app.modules, body, { has_account: false, created_by: request.auth!.actor_id }),
    },
    update: { body: CustomerUpdate, run: (id, body) => customerWrites.update(app.modules, id, body) },
    // Deleting a customer also ends its sign-in.
    delete: (id) => app.infra.engine.execute(removeCustomerAccountWorkflow, { customer_id: id }),
  });

  // One customer also carries its order summaries, which no other answer has.
  app.get(
    "/customers/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: WithOrders } },
    async (request) => {
      const [customer, orders] = await Promise.all([
        service.retrieve(request.params.id),
        app.modules.order.summariesByCustomer([request.params.id]),
      ]);
      return {
        customer: project(
          { ...customer, orders: orders.get(request.params.id) ?? [] },
          parseFields(request.query.fields),
        ),
      };
    },
  );

  app.get(
    "/customers/:id/addresses",
    {
      schema: {
        params: IdParams,
        querystring: Type.Object(ListQuery, { additionalProperties: false }),
        response: ListAnswer("addresses", AddressResponse),
      },
    },
    async (request) => {
      const { limit, offset, fields } = request.query;
      const { items, count } = await service.listAddresses(request.params.id, { limit, offset });
      return listResponse("addresses", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.get(
    "/customers/:id/addresses/:address_id",
    { schema: { params: AddressParams, response: Answer("address", AddressResponse) } },
    async (request) => {
      return { address: await service.retrieveAddress(request.params.id, request.params.address_id) };
    },
  );

  // Address writes answer with the whole customer, as Medusa's admin does.
  app.post(
    "/customers/:id/addresses",
    { schema: { params: IdParams, body: AddressCreate, response: One } },
    async (request) => {
      await service.addAddress(request.params.id, request.body);
      return { customer: await service.retrieve(request.params.id) };
    },
  );

  app.post(
    "/customers/:id/addresses/:address_id",
    { schema: { params: AddressParams, body: AddressUpdate, response: One } },
    async (request) => {
      await service.updateAddress(request.params.id, request.params.address_id, request.body);
      return { customer: await service.retrieve(request.params.id) };
    },
  );

  app.delete(
    "/customers/:id/addresses/:address_id",
    { schema: { params: AddressParams, response: { 200: DeletedAddress } } },
    async (request) => {
      await service.deleteAddress(request.params.id, request.params.address_id);
      return deleted(request.params.address_id, "customer_address", {
        parent: { customer: await service.retrieve(request.params.id) },
      });
    },
  );

  // The customer's side of group membership, as Medusa's admin edits it; answers the customer with its groups.
  app.post(
    "/customers/:id/customer-groups",
    { schema: { params: IdParams, body: GroupsChange, response: One } },
    async (request) => {
      return {
        customer: await service.updateCustomerGroups(request.params.id, request.body, {
          created_by: request.auth!.actor_id,
        }),
      };
    },
  );
}
