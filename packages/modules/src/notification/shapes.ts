import { Strict } from "@kasse/core";
import { Type, type Static } from "@sinclair/typebox";
import { RowView } from "@kasse/db";
import { type NotificationStatus, notification } from "./schema";

/** What a caller asks to send. */
export const NotificationInput = Strict({
  to: Type.String({ minLength: 1 }),
  channel: Type.String({ minLength: 1 }),
  template: Type.String({ minLength: 1 }),
  data: Type.Record(Type.String(), Type.Unknown()),
  /**
   * Keys of `data` whose values are secret (a token, or a link carrying one): encrypted at rest
   * until delivered, then erased; never shown by reads nor written to the log.
   */
  secret_keys: Type.Optional(Type.Array(Type.String())),
  resource_type: Type.Optional(Type.String()),
});
export type NotificationInput = Static<typeof NotificationInput>;

/** Filters of `GET /admin/notifications`. */
export interface NotificationFilters {
  id?: string[];
  to?: string[];
  channel?: string[];
  template?: string[];
  status?: NotificationStatus[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A notification and its delivery state. */
export const NotificationView = RowView(notification);

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type NotificationRow, type NotificationStatus } from "./schema";
