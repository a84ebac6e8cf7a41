import { boolean, text } from "@kasse/db";
import { metadata, entityTable, liveUniqueIndex, indexes } from "@kasse/db";

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
