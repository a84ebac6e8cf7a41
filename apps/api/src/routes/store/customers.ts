import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { errors, Id } from "@kasse/core";
import { ListView } from "@kasse/db";
import { changeCustomerEmail, customerWrites, registerCustomer, requestCustomerEmailChange } from "@kasse/flows";
import {
  AddressCreate,
  AddressResponse,
  AddressUpdate,
  CustomerEmailChange,
  CustomerEmailConfirm,
  CustomerPasswordChange,
  EmailChangeResponse,
  CustomerUpdate,
  StoreCustomerCreate,
  StoreCustomerResponse,
} from "@kasse/modules/customer";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { Answer, DeleteResponse, ListQuery, RetrieveQuery, deleted } from "../../http/schemas";
import { OrderSummaryResponse } from "@kasse/modules/order";

const AddressParams = Type.Object({ address_id: Id() });
const One = { 200: Type.Object({ customer: StoreCustomerResponse }) };
/** `GET /store/customers/me` also carries the customer's order summaries (docs/CONTRACT.md). */
const WithOrders = {
  200: Type.Object({
    customer: Type.Object({
      ...StoreCustomerResponse.properties,
      orders: Type.Optional(Type.Array(OrderSummaryResponse)),
    }),
  }),
};
const Addresses = { 200: ListView("addresses", AddressResponse) };
const DeletedAddress = {
  200: Type.Object({ ...DeleteResponse.properties, parent: Type.Object({ customer: StoreCustomerResponse }) }),
};

/** The signed-in customer's id (the route's guard has checked the token). */
const me = (request: FastifyRequest) => request.auth!.actor_id;

/**
 * Store customers: registration (both forms of docs/CONTRACT.md), the signed-in customer's own
 * record, addresses, password and email. Every `/me` route needs a customer token and only ever
 * touches that customer's rows.
 */
export default async function customers(app: App): Promise<void> {
  const { customer: service, auth } = app.modules;
  const customerOnly = { onRequest: app.guards.customer };

  /**
   * Registration. With a registration token (from `/auth/customer/emailpass/register` or an OAuth
   * callback) the customer is created for that identity's own email and linked to it; without one,
   * `password` is required and the identity is created too (the register-customer workflow: all or
   * nothing; docs/security.md "Email ownership").
   */
  app.post("/customers", { schema: { body: StoreCustomerCreate, response: One } }, async (request) => {
    const { password, ...fields } = request.body;
    const caller = request.auth;
    if (request.authError) throw request.authError;
    if (caller && caller.actor_type !== "customer") throw errors.notAllowed("Only customers can register");
    if (caller?.actor_id) throw errors.invalidData("Request already authenticated as a customer.");
    if (caller && password !== undefined)
      throw errors.invalidData("The registration token already carries a password: send no 'password'");
    if (!caller && password === undefined)
      throw errors.invalidData("Field 'password' is required to register without a registration token");

    const registration = caller ? { auth_identity_id: caller.auth_identity_id } : { password: password! };
    const { customer_id } = await registerCustomer(
      app.infra.engine,
      { customer: fields, ...registration },
      { scryptLogN: app.config.scryptLogN },
    );
    return { customer: await service.retrieve(customer_id) };
  });

  app.get(
    "/customers/me",
    { ...customerOnly, schema: { querystring: RetrieveQuery, response: WithOrders } },
    async (request) => {
      const [customer, orders] = await Promise.all([
        service.retrieve(me(request)),
        app.modules.order.summariesByCustomer([me(request)]),
      ]);
      return {
        customer: project({ ...customer, orders: orders.get(me(request)) ?? [] }, parseFields(request.query.fields)),
      };
    },
  );

  // A changed `email` is refused (400, saying how to change it): the new address must be proven first.
  app.post("/customers/me", { ...customerOnly, schema: { body: CustomerUpdate, response: One } }, async (request) => {
    return { customer: await customerWrites.update(app.modules, me(request), request.body) };
  });

  /** Email change, step 1: mails a token to the new address; the account's email stays as it is. */
  app.post(
    "/customers/me/email",
    { ...customerOnly, schema: { body: CustomerEmailChange, response: Answer("email_change", EmailChangeResponse) } },
    async (request) => {
      const caller = { customer_id: me(request), auth_identity_id: request.auth!.auth_identity_id };
      return {
        email_change: await requestCustomerEmailChange(app.infra.engine, app.modules, {
          ...caller,
          email: request.body.email,
        }),
      };
    },
  );

  /** Email change, step 2: the token mailed to the new address, sent by the customer who asked, changes it. */
  app.post(
    "/customers/me/email/confirm",
    { ...customerOnly, schema: { body: CustomerEmailConfirm, response: One } },
    async (request) => {
      const caller = { customer_id: me(request), auth_identity_id: request.auth!.auth_identity_id };
      await changeCustomerEmail(app.infra.engine, app.modules, { ...caller, token: request.body.token });
      return { customer: await service.retrieve(me(request)) };
    },
  );

  app.get(
    "/customers/me/addresses",
    {
      ...customerOnly,
      schema: { querystring: Type.Object(ListQuery, { additionalProperties: false }), response: Addresses },
    },
    async (request) => {
      const { limit, offset, fields } = request.query;
      const { items, count } = await service.listAddresses(me(request), { limit, offset });
      return { addresses: project(items, parseFields(fields)), count, offset, limit };
    },
  );

  app.get(
    "/customers/me/addresses/:address_id",
    {
      ...customerOnly,
      schema: { params: AddressParams, response: { 200: Type.Object({ address: AddressResponse }) } },
    },
    async (request) => {
      return { address: await service.retrieveAddress(me(request), request.params.address_id) };
    },
  );

  // Address writes answer with the whole customer (it includes the contract's `{id, addresses}`), as Medusa does.
  app.post(
    "/customers/me/addresses",
    { ...customerOnly, schema: { body: AddressCreate, response: One } },
    async (request) => {
      await service.addAddress(me(request), request.body);
      return { customer: await service.retrieve(me(request)) };
    },
  );

  app.post(
    "/customers/me/addresses/:address_id",
    { ...customerOnly, schema: { params: AddressParams, body: AddressUpdate, response: One } },
    async (request) => {
      await service.updateAddress(me(request), request.params.address_id, request.body);
      return { customer: await service.retrieve(me(request)) };
    },
  );

  app.delete(
    "/customers/me/addresses/:address_id",
    { ...customerOnly, schema: { params: AddressParams, response: DeletedAddress } },
    async (request) => {
      await service.deleteAddress(me(request), request.params.address_id);
      return deleted(request.params.address_id, "address", {
        parent: { customer: await service.retrieve(me(request)) },
      });
    },
  );

  /** Password change: the old password must be right (else 400); older reset links stop working. */
  app.post(
    "/customers/me/password",
    { ...customerOnly, schema: { body: CustomerPasswordChange, response: One } },
    async (request) => {
      await auth.changePassword(request.auth!.auth_identity_id, request.body);
      return { customer: await service.retrieve(me(request)) };
    },
  );
}
