import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/core";
import type { App } from "../../app-type";
import { ListQueryOf, RangeQuery, RetrieveQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
// The query keys of Medusa's claim and exchange lists, so its dashboard's requests are understood.
const ChangeListQuery = (statuses: string[]) =>
  ListQueryOf(
    { id: Id(), order_id: Id(), status: Type.Union(statuses.map((s) => Type.Literal(s))) },
    {
      q: Type.Optional(Title()),
      created_at: Type.Optional(RangeQuery()),
      updated_at: Type.Optional(RangeQuery()),
      deleted_at: Type.Optional(RangeQuery()),
    },
  );
const CLAIM_STATUSES = ["draft", "requested", "confirmed", "declined", "canceled"];
const Empty = (key: string) => ({
  200: Type.Object(
    {
      [key]: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }), { maxItems: 0 }),
      count: Type.Literal(0),
      offset: Type.Integer(),
      limit: Type.Integer(),
    },
    { description: `Kasse has no ${key}: always an empty page` },
  ),
});
const None = (key: string) => ({
  200: Type.Object(
    { [key]: Type.Object({ id: Type.String() }, { additionalProperties: true }) },
    { description: `Never answered: Kasse has no ${key}s` },
  ),
});

/**
 * Medusa's claims and exchanges (`GET /admin/claims`, `GET /admin/exchanges`, and one by id).
 * Kasse has neither concept (post-purchase changes are returns and refunds), so the lists are
 * truthfully empty and any id is not found. The dashboard's order page reads both lists.
 */
export default async function orderClaimsExchanges(app: App): Promise<void> {
  for (const [plural, singular, label] of [
    ["claims", "claim", "Claim"],
    ["exchanges", "exchange", "Exchange"],
  ] as const) {
    app.get(
      `/${plural}`,
      { schema: { querystring: ChangeListQuery(CLAIM_STATUSES), response: Empty(plural) } },
      async (request) => ({
        [plural]: [],
        count: 0 as const,
        offset: request.query.offset,
        limit: request.query.limit,
      }),
    );
    app.get(
      `/${plural}/:id`,
      { schema: { params: Params, querystring: RetrieveQuery, response: None(singular) } },
      async (request) => {
        throw errors.notFound(`${label} with id: ${request.params.id} was not found`);
      },
    );
  }
}
