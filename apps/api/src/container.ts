import type { Database, Db } from "@kasse/db";
import { createSalesChannelService } from "@kasse/modules/sales-channel";

/**
 * The module services the routes call, built once per app over one database.
 * Each module adds its service here: `product: createProductService(db)`.
 */
export function createContainer(db: Db) {
  return {
    db,
    salesChannel: createSalesChannelService(db),
  };
}

export type Container = ReturnType<typeof createContainer>;

/** What the app runs on: the database and, in service mode, Redis. */
export interface Infrastructure {
  database: Database;
  /** An ioredis client when REDIS_URL is set. */
  redis?: import("ioredis").Redis;
}
