import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { metadata, OptionalMetadata, timestamps } from "@kasse/db";

/** Admin users. Their credentials live in the auth module (an identity whose `app_metadata.user_id` is the user's id). */
/** A timestamp in a response schema: a `Date` in code, ISO 8601 on the wire. */
const Timestamp = () => Type.Unsafe<Date>({ type: "string", format: "date-time" });

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    avatar_url: text("avatar_url"),
    metadata: metadata(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("user_email_uq").on(t.email).where(sql`deleted_at is null`),
    index("user_created_at_idx").on(t.created_at),
  ],
);

export type UserRow = typeof user.$inferSelect;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const MetadataBody = OptionalMetadata();

/** Input of user creation (`kasse user create`, the first start, invites). */
export const UserCreate = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 320 }),
    first_name: Nullable(Type.String({ maxLength: 200 })),
    last_name: Nullable(Type.String({ maxLength: 200 })),
    avatar_url: Nullable(Type.String({ maxLength: 2048 })),
    metadata: MetadataBody,
  },
  { additionalProperties: false },
);
export type UserCreate = Static<typeof UserCreate>;

/** Body of `POST /admin/users/{id}` (Medusa: the email is not editable). */
export const UserUpdate = Type.Object(
  {
    first_name: Nullable(Type.String({ maxLength: 200 })),
    last_name: Nullable(Type.String({ maxLength: 200 })),
    avatar_url: Nullable(Type.String({ maxLength: 2048 })),
    metadata: MetadataBody,
  },
  { additionalProperties: false },
);
export type UserUpdate = Static<typeof UserUpdate>;

/** A user as the API answers it: the listed fields only. */
export const UserView = Type.Object({
  id: Type.String(),
  email: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  last_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  avatar_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  created_at: Type.Optional(Timestamp()),
  updated_at: Type.Optional(Timestamp()),
  deleted_at: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
});

/** Filters of `GET /admin/users`. */
export interface UserFilters {
  id?: string[];
  email?: string[];
  q?: string;
}
