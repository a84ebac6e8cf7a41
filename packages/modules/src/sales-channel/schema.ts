import { boolean, text } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { LongText, OptionalMetadata, Title, Strict } from "@kasse/core";
import { metadata, RowView, entityTable, liveUniqueIndex, indexes, type ListFilters } from "@kasse/db";

/** Sales channels: where products are sold; publishable keys and carts point at one. */
export const salesChannel = entityTable(
  "sales_channel",
  {
    name: text("name").notNull(),
    description: text("description"),
    is_disabled: boolean("is_disabled").notNull().default(false),
    is_default: boolean("is_default").notNull().default(false),
    metadata: metadata(),
  },
  (t) => [
    ...indexes("sales_channel", { name: t.name, created_at: t.created_at }),
    // At most one live default channel.
    liveUniqueIndex("sales_channel_default_uq", "is_default").on(t.is_default),
  ],
);

export type SalesChannelRow = typeof salesChannel.$inferSelect;

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
