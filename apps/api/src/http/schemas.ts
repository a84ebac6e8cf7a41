import { Type, type TSchema } from "@sinclair/typebox";
import { DEFAULT_LIMIT, ListView, MAX_LIMIT } from "@kasse/db";

/** The error body every 4xx/5xx answers with. */
export const ErrorResponse = Type.Object({ type: Type.String(), message: Type.String() }, { $id: "Error" });

/** `limit`, `offset`, `fields`, `order`: the paging part of every list query. */
export const ListQuery = {
  limit: Type.Integer({ minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  fields: Type.Optional(Type.String()),
  order: Type.Optional(Type.String({ pattern: "^[-+]?[A-Za-z_][A-Za-z0-9_.]*(,[-+]?[A-Za-z_][A-Za-z0-9_.]*)*$" })),
};

/** `fields` alone, for retrieve routes. */
export const RetrieveQuery = Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false });

/** One value or many: `status=a`, `status[]=a&status[]=b` and `status[0]=a` all arrive as an array. */
export const ArrayQuery = <T extends TSchema>(item: T) => Type.Array(item, { maxItems: 1000 });

/** A range filter object: `created_at[gte]=…` or Medusa's `created_at[$gte]=…`. Normalize with `normalizeRange`. */
export const RangeQuery = () =>
  Type.Union([
    Type.String(),
    Type.Record(Type.String({ pattern: "^\\$?(gt|gte|lt|lte|eq|ne|in)$" }), Type.Union([Type.String(), Type.Array(Type.String())])),
  ]);

/** `{id, object, deleted: true}`. */
export const DeleteResponse = Type.Object({ id: Type.String(), object: Type.String(), deleted: Type.Literal(true) });

/** A boolean query flag (`true`/`false`). */
export const BooleanQuery = () => Type.Boolean();

/** Free key-value metadata. */
export const Metadata = () => Type.Record(Type.String(), Type.Unknown());

/** Lower-case ISO 4217 code (`usd`); upper case is accepted and lowered by the service. */
export const CurrencyCode = () => Type.String({ pattern: "^[A-Za-z]{3}$" });

/** Two-letter ISO 3166 country code. */
export const CountryCode = () => Type.String({ pattern: "^[A-Za-z]{2}$" });

/** A non-negative integer amount in minor units. */
export const Amount = () => Type.Integer({ minimum: 0 });

/** Envelope of a list response. */
export const listResponse = <T>(key: string, items: T[], count: number, page: { limit: number; offset: number }) => ({
  [key]: items,
  count,
  offset: page.offset,
  limit: page.limit,
});

/** `{200: {<key>: view}}`: the success answer of a route that answers one resource. */
export const Answer = <T extends TSchema>(key: string, view: T) => ({ 200: Type.Object({ [key]: view }, { description: `The ${key.replaceAll("_", " ")}` }) });

/** `{200: {<key>: [view], count, offset, limit}}`: the success answer of a list route. */
export const ListAnswer = <T extends TSchema>(key: string, view: T) => ({ 200: { ...ListView(key, view), description: `A page of ${key.replaceAll("_", " ")}` } });

/** `{200: {id, object, deleted: true}}`. */
export const Deleted = { 200: { ...DeleteResponse, description: "Deleted" } };
