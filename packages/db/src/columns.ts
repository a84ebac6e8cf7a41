import { bigint, jsonb, timestamp } from "drizzle-orm/pg-core";

/** `created_at`, `updated_at` (set on update by `$onUpdate`), `deleted_at` for soft delete. */
export const timestamps = () => ({
  created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  deleted_at: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
});

/** A money amount in integer minor units (bigint in the database, a safe integer in JS). */
export const money = (name: string) => bigint(name, { mode: "number" });

/** Free key-value pairs. */
export const metadata = () => jsonb("metadata").$type<Record<string, unknown>>();
