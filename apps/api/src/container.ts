import { resolve } from "node:path";
import type { Db } from "@kasse/db";
import { createSalesChannelService } from "@kasse/modules/sales-channel";
import { createProductService } from "@kasse/modules/product";
import { createInventoryService } from "@kasse/modules/inventory";
import { createStockLocationService } from "@kasse/modules/stock-location";
import { createCustomerService } from "@kasse/modules/customer";
import { createNotificationService, defaultNotificationProviders, type NotificationLogger } from "@kasse/modules/notification";
import { createFulfillmentRecordService, createFulfillmentService } from "@kasse/modules/fulfillment";
import { createPaymentService } from "@kasse/modules/payment";
import { createCurrencyService } from "@kasse/modules/currency";
import { createStoreService } from "@kasse/modules/store";
import { createFileService, createLocalFileProvider } from "@kasse/modules/file";
import { createRegionService } from "@kasse/modules/region";
import { createTaxService } from "@kasse/modules/tax";
import { createPriceListService, createPricePreferenceService, createPricingService } from "@kasse/modules/pricing";
import { createAuthService, createOneTimeTokenService } from "@kasse/modules/auth";
import { createInviteService, createUserService } from "@kasse/modules/user";
import { createApiKeyService } from "@kasse/modules/api-key";
import { createPromotionService } from "@kasse/modules/promotion";
import { createCartService } from "@kasse/modules/cart";
import { createOrderService, createReturnReasonService, createReturnService, createOrderTransferService } from "@kasse/modules/order";
import { createEventService, createWebhookService } from "@kasse/modules/event";

/**
 * The module services the routes call, built once per app over one database.
 * Each module adds its service here: `product: createProductService(db)`.
 */
export function createContainer(db: Db, options: ContainerOptions) {
  return {
    db,
    salesChannel: createSalesChannelService(db),
    product: createProductService(db),
    inventory: createInventoryService(db),
    stockLocation: createStockLocationService(db),
    customer: createCustomerService(db),
    notification: createNotificationService(db, { providers: defaultNotificationProviders(options), secret: options.secret }),
    authTokens: createOneTimeTokenService(db),
    fulfillment: createFulfillmentService(db),
    payment: createPaymentService(db),
    currency: createCurrencyService(db),
    store: createStoreService(db),
    file: createFileService(createLocalFileProvider({ dir: options.files?.dir ?? resolve(".kasse", "uploads") }), { maxBytes: options.files?.maxBytes ?? 10 * 1024 * 1024, maxFiles: options.files?.maxFiles ?? 10 }),
    region: createRegionService(db),
    tax: createTaxService(db),
    pricing: createPricingService(db),
    priceList: createPriceListService(db),
    pricePreference: createPricePreferenceService(db),
    auth: createAuthService(db, { scrypt: { logN: options.scryptLogN } }),
    user: createUserService(db),
    invite: createInviteService(db),
    apiKey: createApiKeyService(db),
    promotion: createPromotionService(db),
    cart: createCartService(db),
    order: createOrderService(db),
    fulfillmentRecord: createFulfillmentRecordService(db),
    returnReason: createReturnReasonService(db),
    orderReturn: createReturnService(db),
    orderTransfer: createOrderTransferService(db),
    events: createEventService(db),
    webhooks: createWebhookService(db, { secret: options.secret, allowPrivate: options.webhookAllowPrivate }),
  };
}

export type Container = ReturnType<typeof createContainer>;

/** What services need beyond the database: the server secret, the SMTP URL and the logger of the `log` notification provider. */
export interface ContainerOptions {
  /** The server secret (`JWT_SECRET`), from which the key encrypting stored secrets (notification tokens) is derived. */
  secret: Uint8Array;
  smtpUrl?: string;
  logger?: NotificationLogger;
  /** scrypt cost of new password hashes (`SCRYPT_LOG_N`, default 15). */
  scryptLogN?: number;
  /** Webhook endpoints may be loopback or private addresses (`WEBHOOK_ALLOW_PRIVATE`). */
  webhookAllowPrivate?: boolean;
  /** Uploads: the local file provider's directory and the limits (default `.kasse/uploads`, 10 MiB, 10 files). */
  files?: { dir: string; maxBytes: number; maxFiles: number };
}
