import { Type, type Static } from "@sinclair/typebox";
import { LongText, OptionalMetadata, Title, Strict } from "@kasse/core";
import { RowView, type ListFilters } from "@kasse/db";
import { salesChannel } from "./schema";

/** Body of `POST /admin/sales-channels`. */
export const SalesChannelCreate = Strict({
  name: Title({ minLength: 1 }),
  description: Type.Optional(Type.Union([LongText(), Type.Null()])),
  is_disabled: Type.Optional(Type.Boolean()),
  metadata: OptionalMetadata(),
});
export type SalesChannelCreate = Static<typeof SalesChannelCreate>;

/** Body of `POST /admin/sales-channels/{id}`: the create fields, all optional. */
export const SalesChannelUpdate = Type.Partial(SalesChannelCreate, { additionalProperties: false });
export type SalesChannelUpdate = Static<typeof SalesChannelUpdate>;

/** Filters of `GET /admin/sales-channels`. */
export interface SalesChannelFilters extends ListFilters {
  name?: string[];
  is_disabled?: boolean;
}

// ---- Responses ------------------------------------------------------------------------------

/** A sales channel. */
export const SalesChannelView = RowView(salesChannel);

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type SalesChannelRow } from "./schema";
