import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/db";
import type { App } from "../../app";
import { ArrayQuery, ListQuery, RangeQuery, RetrieveQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
// The query keys of Medusa's refund reason list, so its dashboard's refund form is understood.
const ListRefundReasons = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    created_at: Type.Optional(RangeQuery()),
    updated_at: Type.Optional(RangeQuery()),
    deleted_at: Type.Optional(RangeQuery()),
  },
  { additionalProperties: false },
);
const EmptyPage = Type.Object(
  {
    refund_reasons: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }), { maxItems: 0 }),
    count: Type.Literal(0),
    offset: Type.Integer(),
    limit: Type.Integer(),
  },
  { description: "Kasse has no refund reasons: always an empty page" },
);
const Never = Type.Object(
  { refund_reason: Type.Object({ id: Type.String() }, { additionalProperties: true }) },
  { description: "Never answered: Kasse has no refund reasons" },
);

/**
 * Medusa's refund reasons (`GET /admin/refund-reasons`, and one by id). A Kasse refund carries its
 * reason as free text (`note`), not a managed list, so the list is truthfully empty and any id is
 * not found; the dashboard's refund form then offers only its note field.
 */
export default async function refundReasons(app: App): Promise<void> {
  app.get(
    "/refund-reasons",
    { schema: { querystring: ListRefundReasons, response: { 200: EmptyPage } } },
    async (request) => ({
      refund_reasons: [],
      count: 0 as const,
      offset: request.query.offset,
      limit: request.query.limit,
    }),
  );
  app.get(
    "/refund-reasons/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: { 200: Never } } },
    async (request) => {
      throw errors.notFound(`Refund reason with id: ${request.params.id} was not found`);
    },
  );
}
