import { Type, type Static } from "@sinclair/typebox";
import { Email, OptionalMetadata, Title, Strict } from "@kasse/core";
import { TimestampView, type ListFilters } from "@kasse/db";

// Admin users. Their credentials live in the auth module (an identity whose `app_metadata.user_id` is the user's id).

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));
const MetadataBody = OptionalMetadata();

/** What a user's profile holds (Medusa: the email is not editable). */
const profile = {
  first_name: Nullable(Title({ maxLength: 200 })),
  last_name: Nullable(Title({ maxLength: 200 })),
  avatar_url: Nullable(Type.String({ maxLength: 2048 })),
  metadata: MetadataBody,
};

/** Input of user creation (`kasse user create`, the first start, invites). */
export const UserCreate = Strict({ email: Email(), ...profile });
export type UserCreate = Static<typeof UserCreate>;

/** Body of `POST /admin/users/{id}`. */
export const UserUpdate = Strict(profile);
export type UserUpdate = Static<typeof UserUpdate>;

/** What a user's and an invite's views end with: their metadata and times. */
const recordFields = {
  metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  created_at: Type.Optional(TimestampView()),
  updated_at: Type.Optional(TimestampView()),
  deleted_at: Type.Optional(Type.Union([TimestampView(), Type.Null()])),
};

/** A user as the API answers it: the listed fields only. */
export const UserView = Type.Object({
  id: Type.String(),
  email: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  last_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  avatar_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  ...recordFields,
});

/** Filters of `GET /admin/users`. */
export interface UserFilters extends ListFilters {
  email?: string[];
}

/** Body of `POST /admin/invites`. */
export const InviteCreate = Strict({ email: Email(), metadata: MetadataBody });
export type InviteCreate = Static<typeof InviteCreate>;

/** Body of `POST /admin/invites/accept`: the new user's names; `email`, when sent, must be the invite's. */
export const InviteAccept = Strict({
  email: Nullable(Email()),
  first_name: profile.first_name,
  last_name: profile.last_name,
});
export type InviteAccept = Static<typeof InviteAccept>;

/** An invite as the API answers it: `token` only in the answers that create or resend it. */
export const InviteView = Type.Object({
  id: Type.String(),
  email: Type.Optional(Type.String()),
  accepted: Type.Optional(Type.Boolean()),
  token: Type.Optional(Type.String()),
  expires_at: Type.Optional(TimestampView()),
  ...recordFields,
});

/** Filters of `GET /admin/invites`. */
export type InviteFilters = UserFilters;

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type InviteRow, type UserRow } from "./schema";
