import { Type, type TArray, type TOptional, type TProperties, type TSchema } from "@sinclair/typebox";
import { Code, Id, MAX_LENGTH } from "@kasse/core";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, ListView } from "@kasse/db";

/** `fields`: Medusa's admin asks for long selections (an order's is ~1,500 characters). */
export const Fields = () => Type.String({ maxLength: 4096 });

/** `limit`, `offset`, `fields`, `order`: the paging part of every list query. */
export const ListQuery = {
  limit: Type.Integer({ minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }),
  fields: Type.Optional(Fields()),
  order: Type.Optional(
    Type.String({ maxLength: 1000, pattern: "^[-+]?[A-Za-z_][A-Za-z0-9_.]*(,[-+]?[A-Za-z_][A-Za-z0-9_.]*)*$" }),
  ),
};

/**
 * A list route's querystring: the `paging` part ({@link ListQuery} unless given), `filters` as
 * given, and each of `lists` accepted as one value or many ({@link ArrayQuery}); all optional,
 * nothing else.
 * @example
 * const ListRegions = ListQueryOf({ id: Id(), name: Title() }, { q: Type.Optional(Title()) });
 */
export function ListQueryOf<
  L extends TProperties,
  F extends TProperties = Record<never, never>,
  P extends TProperties = typeof ListQuery,
>(lists: L, filters: F = {} as F, paging: P = ListQuery as unknown as P) {
  type Many = { [K in keyof L]: TOptional<TArray<L[K]>> };
  const many = Object.fromEntries(
    Object.entries(lists).map(([key, item]) => [key, Type.Optional(ArrayQuery(item))]),
  ) as Many;
  return Type.Object({ ...paging, ...filters, ...many }, { additionalProperties: false });
}

/**
 * Paging of the small settings lists Medusa's dashboard reads whole with `limit=9999` (regions and
 * price preferences: one price column per currency in its product and price list grids). Such a
 * list is never that long; the limit may say so.
 */
export const WholeListQuery = {
  ...ListQuery,
  limit: Type.Integer({ minimum: 0, maximum: 10_000, default: DEFAULT_LIMIT }),
};

/** `{id}`: the path of one resource (`/regions/:id`), the same schema for every route that names one. */
export const IdParams = Type.Object({ id: Id() });

/**
 * `{id, <child>}`: the path of one record under a resource, e.g. `ChildParams("address_id")` for
 * `/customers/:id/addresses/:address_id`.
 */
export const ChildParams = <K extends string>(child: K) =>
  Type.Object({ id: Id(), ...({ [child]: Id() } as Record<K, ReturnType<typeof Id>>) });

/** `fields` alone, for retrieve routes. */
/** A body or query string that takes no field: anything sent is refused. */
export const NoFields = Type.Object({}, { additionalProperties: false });

export const RetrieveQuery = Type.Object({ fields: Type.Optional(Fields()) }, { additionalProperties: false });

/** One value or many: `status=a`, `status[]=a&status[]=b` and `status[0]=a` all arrive as an array. */
export const ArrayQuery = <T extends TSchema>(item: T) => Type.Array(item, { maxItems: 1000 });

/**
 * An exact-match filter value (`handle=`, `email=`): at most as long as the field it matches, but
 * not checked for shape, so a value that cannot match finds nothing (as in Medusa) instead of failing.
 */
export const Filter = (kind: keyof typeof MAX_LENGTH) => Type.String({ maxLength: MAX_LENGTH[kind] });

/** A range filter object: `created_at[gte]=…` or Medusa's `created_at[$gte]=…`. Normalize with `normalizeRange`. */
export const RangeQuery = () =>
  Type.Union([
    Code(),
    Type.Record(
      Type.String({ pattern: "^\\$?(gt|gte|lt|lte|eq|ne|in)$" }),
      Type.Union([Code(), Type.Array(Code(), { maxItems: 1000 })]),
    ),
  ]);

/** `{id, object, deleted: true}`. */
export const DeleteResponse = Type.Object({ id: Type.String(), object: Type.String(), deleted: Type.Literal(true) });

/** Envelope of a list response. */
export const listResponse = <T>(key: string, items: T[], count: number, page: { limit: number; offset: number }) => ({
  [key]: items,
  count,
  offset: page.offset,
  limit: page.limit,
});

/** `{200: {<key>: view}}`: the success answer of a route that answers one resource. */
export const Answer = <T extends TSchema>(key: string, view: T) => ({
  200: Type.Object({ [key]: view }, { description: `The ${key.replaceAll("_", " ")}` }),
});

/** A schema with the description OpenAPI shows (its type named for the declarations `tsc -b` emits). */
type Described<T extends TSchema> = T & { description: string };

/** `{200: {<key>: [view], count, offset, limit}}`: the success answer of a list route. */
export const ListAnswer = <T extends TSchema>(
  key: string,
  view: T,
): { 200: Described<ReturnType<typeof ListView>> } => ({
  200: { ...ListView(key, view), description: `A page of ${key.replaceAll("_", " ")}` },
});

/**
 * The answer of a delete, `{id, object, deleted: true}`, with what `extra` adds (the `parent` the
 * record was removed from).
 * @example
 * return deleted(request.params.zone_id, "service_zone", { parent: await fulfillment.retrieveSet(request.params.id) });
 */
export const deleted = <E extends object = Record<never, never>>(id: string, object: string, extra?: E) => ({
  id,
  object,
  deleted: true as const,
  ...(extra as E),
});

/** `{200: {created: [view], updated: [view], deleted: {ids, object, deleted}}}`: the answer of a Medusa batch route. */
export const BatchAnswer = <T extends TSchema>(view: T) => ({
  200: Type.Object({
    created: Type.Array(view),
    updated: Type.Array(view),
    deleted: Type.Object({ ids: Type.Array(Type.String()), object: Type.String(), deleted: Type.Boolean() }),
  }),
});

/** `{200: {id, object, deleted: true}}`. */
export const Deleted: { 200: Described<typeof DeleteResponse> } = {
  200: { ...DeleteResponse, description: "Deleted" },
};
