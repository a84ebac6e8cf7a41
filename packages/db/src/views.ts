import { getTableColumns, type Column, type Table } from "drizzle-orm";
import { Type, type TSchema, type TUnsafe } from "@sinclair/typebox";
import { FileUrlView, MoneyView } from "@kasse/core";
import { isFileUrlColumn, isMoneyColumn } from "./money-columns";

/** An ISO 8601 timestamp as a response shows it (services hand back Dates; the serializer writes them as ISO strings). */
export const TimestampView = () => Type.Unsafe<Date | string>({ type: "string", format: "date-time" });

/** `T` or `null`. */
export const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Free key-value metadata, or null. */
export const MetadataView = () =>
  Type.Unsafe<Record<string, unknown> | null>({
    anyOf: [{ type: "object", additionalProperties: true }, { type: "null" }],
  });

/** Any JSON value (a provider's `data`, a journal's step output). */
export const AnyJson = () => Type.Unsafe<unknown>({});

function columnSchema(column: Column): TSchema {
  const base = ((): TSchema => {
    if (column.columnType === "PgJsonb" || column.columnType === "PgJson")
      return column.name === "metadata" ? Type.Record(Type.String(), Type.Unknown()) : Type.Unsafe({});
    if (column.enumValues?.length) return Type.Union(column.enumValues.map((value) => Type.Literal(value)));
    switch (column.dataType) {
      case "date":
        return TimestampView();
      case "boolean":
        return Type.Boolean();
      case "number":
        if (isMoneyColumn(column)) return MoneyView();
        return column.columnType === "PgDoublePrecision" || column.columnType === "PgReal"
          ? Type.Number()
          : Type.Integer();
      case "array":
        return Type.Array(Type.Unsafe({}));
      default:
        return isFileUrlColumn(column) ? FileUrlView() : Type.String();
    }
  })();
  return column.notNull ? base : OrNull(base);
}

/**
 * The properties of a table's row as the API shows it (rows are API-shaped: snake_case keys),
 * every one optional because `fields` may narrow a response. Derived from the drizzle columns,
 * so a new column is documented (and serialized) without a second edit.
 */
export function rowProperties(table: Table, omit: string[] = []): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!omit.includes(key)) properties[key] = Type.Optional(columnSchema(column));
  }
  return properties;
}

/**
 * A resource's response schema: the given properties (see {@link rowProperties}) plus relations
 * and computed extras, all optional. Open (`additionalProperties: true`) so the serializer never
 * drops a key a newer change adds; the test apps check that every key answered is listed here.
 * Resources that carry secrets are strict objects instead (see the user and api-key views).
 * Typed `unknown` for the route type provider: services return rows with Dates and relations.
 */
export function View(properties: Record<string, TSchema>, options: { description?: string } = {}): TUnsafe<unknown> {
  return Type.Unsafe<unknown>(Type.Object(optional(properties), { additionalProperties: true, ...options }));
}

/** A view of one table's rows with `extra` properties (relations, computed fields). */
export function RowView(table: Table, extra: Record<string, TSchema> = {}, omit: string[] = []): TUnsafe<unknown> {
  return View({ ...rowProperties(table, omit), ...extra });
}

function optional(properties: Record<string, TSchema>): Record<string, TSchema> {
  return Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)]));
}

/** A view with more properties: `Extend(ProductView, { variants: Type.Array(AdminVariantView) })`. */
export function Extend(view: TUnsafe<unknown>, extra: Record<string, TSchema>, omit: string[] = []): TUnsafe<unknown> {
  const properties = { ...(view as unknown as { properties: Record<string, TSchema> }).properties, ...extra };
  for (const key of omit) delete properties[key];
  return View(properties);
}

/** `{<key>: [view], count, offset, limit}`: a list answer. */
export function ListView(key: string, item: TSchema) {
  return Type.Object({ [key]: Type.Array(item), count: Type.Integer(), offset: Type.Integer(), limit: Type.Integer() });
}
