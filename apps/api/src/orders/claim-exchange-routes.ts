import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { normalizeRange, toDate } from "@kasse/db";
import {
  addClaimExchangeShipping,
  addInboundItems,
  addOutboundItems,
  cancelClaimExchangeWorkflow,
  confirmClaimExchangeWorkflow,
  removeClaimExchangeShipping,
  removeInboundItem,
  removeOutboundItem,
  updateClaimExchangeShipping,
  updateInboundItem,
  updateOutboundItem,
} from "@kasse/flows";
import {
  ClaimBegin,
  ClaimExchangeConfirm,
  OrderEditBegin,
  ClaimView,
  ORDER_CHANGE_STATUSES,
  ExchangeView,
  OrderEditItemsAdd,
  OrderEditItemUpdate,
  OrderEditShippingAdd,
  OrderEditShippingUpdate,
  ReturnRequestItems,
  ReturnRequestItemUpdate,
  ReturnView,
  type ClaimExchangeKind,
} from "@kasse/modules/order";
import type { FastifyRequest } from "fastify";
import type { App } from "../app-type";
import { parseFields, project } from "../http/fields";
import {
  ArrayQuery,
  ChildParams,
  Deleted,
  IdParams,
  ListAnswer,
  ListQuery,
  RangeQuery,
  RetrieveQuery,
  deleted,
  listResponse,
} from "../http/schemas";
import { orderPreview, OrderPreviewView } from "./preview";

const ActionParams = ChildParams("action_id");
const Confirm = Type.Optional(ClaimExchangeConfirm);
const STATUSES = ["draft", ...ORDER_CHANGE_STATUSES] as const;
const ListClaimsExchanges = Type.Object(
  {
    ...ListQuery,
    id: Type.Optional(ArrayQuery(Id())),
    order_id: Type.Optional(ArrayQuery(Id())),
    /** Their order changes' statuses (Medusa's `draft` is a pending one). */
    status: Type.Optional(ArrayQuery(Type.Union(STATUSES.map((s) => Type.Literal(s))))),
    q: Type.Optional(Title()),
    created_at: Type.Optional(RangeQuery()),
    updated_at: Type.Optional(RangeQuery()),
    deleted_at: Type.Optional(RangeQuery()),
  },
  { additionalProperties: false },
);

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/**
 * The routes Medusa's exchanges and claims share (docs/orders.md "Exchanges and claims"): list and
 * read; begin; inbound items and shipping (answering the preview and the return); outbound items
 * and shipping (the preview and the exchange or claim); request (the confirm saga) and its cancel;
 * the cancel of a confirmed one (its saga).
 * A claim's claimed items are in `routes/admin/claims.ts`.
 */
export function claimExchangeRoutes(app: App, kind: ClaimExchangeKind): void {
  const plural = `/${kind}s`;
  const View = kind === "exchange" ? ExchangeView : ClaimView;
  const service = app.modules.claimExchange;
  const WithReturn = { 200: Type.Object({ order_preview: OrderPreviewView, return: ReturnView }) };
  const WithSelf = { 200: Type.Object({ order_preview: OrderPreviewView, [kind]: View }) };
  // Medusa's dialect reads a body's amounts (`unit_price`, `custom_amount`) in the order's currency.
  const orderCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => ({
        currency_code: (await service.retrieve(kind, (request.params as { id: string }).id)).currency_code,
      }),
    },
  };
  const withReturn = async (row: { order_id: string; return_id: string }) => ({
    order_preview: await orderPreview(app.modules, row.order_id),
    return: await app.modules.returnChange.retrieveReturn(row.return_id),
  });
  const withSelf = async (row: { id: string; order_id: string }) => ({
    order_preview: await orderPreview(app.modules, row.order_id),
    [kind]: await service.retrieve(kind, row.id),
  });

  app.get(
    plural,
    { schema: { querystring: ListClaimsExchanges, response: ListAnswer(`${kind}s`, View) } },
    async (request) => {
      const { limit, offset, order, fields, created_at, updated_at, id, order_id, status, q } = request.query;
      const { items, count } = await service.list(
        kind,
        {
          id,
          order_id,
          q,
          status: status?.map((s) => (s === "draft" ? "pending" : s)),
          created_at: created_at === undefined ? undefined : normalizeRange(created_at, toDate),
          updated_at: updated_at === undefined ? undefined : normalizeRange(updated_at, toDate),
        },
        { limit, offset, order },
      );
      return listResponse(`${kind}s`, project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.get(
    `${plural}/:id`,
    { schema: { params: IdParams, querystring: RetrieveQuery, response: { 200: Type.Object({ [kind]: View }) } } },
    async (request) => ({
      [kind]: project(await service.retrieve(kind, request.params.id), parseFields(request.query.fields)),
    }),
  );

  app.post(
    plural,
    {
      schema: {
        body: kind === "exchange" ? OrderEditBegin : ClaimBegin,
        response: { 200: Type.Object({ [kind]: View, order: OrderPreviewView }) },
      },
    },
    async (request) => {
      const begun = await service.begin(
        kind,
        request.body as OrderEditBegin & Pick<ClaimBegin, "type">,
        actor(request),
      );
      return { [kind]: begun, order: await orderPreview(app.modules, begun.order_id) };
    },
  );

  app.post(
    `${plural}/:id/inbound/items`,
    { schema: { params: IdParams, body: ReturnRequestItems, response: WithReturn } },
    async (request) => withReturn(await addInboundItems(app.modules, kind, request.params.id, request.body)),
  );
  app.post(
    `${plural}/:id/inbound/items/:action_id`,
    { schema: { params: ActionParams, body: ReturnRequestItemUpdate, response: WithReturn } },
    async (request) =>
      withReturn(await updateInboundItem(app.modules, kind, request.params.id, request.params.action_id, request.body)),
  );
  app.delete(
    `${plural}/:id/inbound/items/:action_id`,
    { schema: { params: ActionParams, response: WithReturn } },
    async (request) =>
      withReturn(await removeInboundItem(app.modules, kind, request.params.id, request.params.action_id)),
  );

  for (const [direction, inbound] of [
    ["inbound", true],
    ["outbound", false],
  ] as const) {
    const answer = inbound ? withReturn : withSelf;
    const response = inbound ? WithReturn : WithSelf;
    app.post(
      `${plural}/:id/${direction}/shipping-method`,
      { config: orderCurrency, schema: { params: IdParams, body: OrderEditShippingAdd, response } },
      async (request) =>
        answer(await addClaimExchangeShipping(app.modules, kind, request.params.id, request.body, inbound)),
    );
    app.post(
      `${plural}/:id/${direction}/shipping-method/:action_id`,
      { config: orderCurrency, schema: { params: ActionParams, body: OrderEditShippingUpdate, response } },
      async (request) =>
        answer(
          await updateClaimExchangeShipping(
            app.modules,
            kind,
            request.params.id,
            request.params.action_id,
            request.body,
            inbound,
          ),
        ),
    );
    app.delete(
      `${plural}/:id/${direction}/shipping-method/:action_id`,
      { schema: { params: ActionParams, response } },
      async (request) =>
        answer(
          await removeClaimExchangeShipping(app.modules, kind, request.params.id, request.params.action_id, inbound),
        ),
    );
  }

  app.post(
    `${plural}/:id/outbound/items`,
    { config: orderCurrency, schema: { params: IdParams, body: OrderEditItemsAdd, response: WithSelf } },
    async (request) => withSelf(await addOutboundItems(app.modules, kind, request.params.id, request.body)),
  );
  app.post(
    `${plural}/:id/outbound/items/:action_id`,
    { config: orderCurrency, schema: { params: ActionParams, body: OrderEditItemUpdate, response: WithSelf } },
    async (request) =>
      withSelf(await updateOutboundItem(app.modules, kind, request.params.id, request.params.action_id, request.body)),
  );
  app.delete(
    `${plural}/:id/outbound/items/:action_id`,
    { schema: { params: ActionParams, response: WithSelf } },
    async (request) =>
      withSelf(await removeOutboundItem(app.modules, kind, request.params.id, request.params.action_id)),
  );

  app.post(
    `${plural}/:id/request`,
    {
      schema: {
        params: IdParams,
        body: Confirm,
        response: {
          200: Type.Object({ order_preview: OrderPreviewView, [kind]: View, return: Type.Optional(ReturnView) }),
        },
      },
    },
    async (request) => {
      const confirmed = await app.infra.engine.execute(confirmClaimExchangeWorkflow, {
        kind,
        id: request.params.id,
        actor: actor(request),
        no_notification: request.body?.no_notification,
      });
      const answer = await withSelf({ id: confirmed.id, order_id: confirmed.order_id });
      return confirmed.return_id
        ? { ...answer, return: await app.modules.returnChange.retrieveReturn(confirmed.return_id) }
        : answer;
    },
  );

  // Medusa's cancel of a confirmed one (its `no_notification`: nothing is mailed on a cancel).
  app.post(
    `${plural}/:id/cancel`,
    { schema: { params: IdParams, body: Confirm, response: { 200: Type.Object({ [kind]: View }) } } },
    async (request) => {
      await app.infra.engine.execute(cancelClaimExchangeWorkflow, {
        kind,
        id: request.params.id,
        actor: actor(request),
      });
      return { [kind]: await service.retrieve(kind, request.params.id) };
    },
  );

  app.delete(`${plural}/:id/request`, { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await service.cancelPending(kind, request.params.id, actor(request));
    return deleted(request.params.id, kind);
  });
}
