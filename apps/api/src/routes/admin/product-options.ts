import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/core";
import type { App } from "../../app-type";
import { ArrayQuery, ListQuery, RangeQuery, RetrieveQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
// The query keys of Medusa's product option list, so its dashboard's product form is understood.
const ListProductOptions = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    title: Type.Optional(ArrayQuery(Title())),
    is_exclusive: Type.Optional(Type.Boolean()),
    created_at: Type.Optional(RangeQuery()),
    updated_at: Type.Optional(RangeQuery()),
    deleted_at: Type.Optional(RangeQuery()),
  },
  { additionalProperties: false },
);
const EmptyPage = Type.Object(
  {
    product_options: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }), { maxItems: 0 }),
    count: Type.Literal(0),
    offset: Type.Integer(),
    limit: Type.Integer(),
  },
  { description: "Kasse has no options shared between products: always an empty page" },
);
const Never = Type.Object(
  { product_option: Type.Object({ id: Type.String() }, { additionalProperties: true }) },
  { description: "Never answered: Kasse has no shared product options" },
);

/**
 * Medusa's shared product options (`GET /admin/product-options`, and one by id), which several
 * products reuse. A Kasse option belongs to its one product (read and written under
 * `/admin/products/{id}/options`), so this list is truthfully empty and any id is not found; the
 * dashboard's product form then creates the product's own options, as Kasse keeps them.
 */
export default async function productOptions(app: App): Promise<void> {
  app.get(
    "/product-options",
    { schema: { querystring: ListProductOptions, response: { 200: EmptyPage } } },
    async (request) => ({
      product_options: [],
      count: 0 as const,
      offset: request.query.offset,
      limit: request.query.limit,
    }),
  );
  app.get(
    "/product-options/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: { 200: Never } } },
    async (request) => {
      throw errors.notFound(`Product option with id: ${request.params.id} was not found`);
    },
  );
}
