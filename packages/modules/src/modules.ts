import { resolve } from "node:path";
import { errors } from "@kasse/core";
import { createApiKeyService } from "./api-key";
import { createAuthService, createOneTimeTokenService } from "./auth";
import { createCartService } from "./cart";
import { createCurrencyService } from "./currency";
import { createCustomerService } from "./customer";
import { createEventService, createWebhookService } from "./event";
import { createFileProvider, createFileService, type FileLimits, type FileStorage } from "./file";
import {
  createFulfillmentRecordService,
  createFulfillmentService,
  createShippingOptionTypeService,
  defaultFulfillmentProviders,
  type FulfillmentProviderRegistry,
} from "./fulfillment";
import { createInventoryService } from "./inventory";
import {
  createNotificationService,
  defaultNotificationProviders,
  type NotificationLogger,
  type NotificationProvider,
} from "./notification";
import {
  createOrderService,
  createOrderTransferService,
  createReturnReasonService,
  createReturnService,
  createReturnChangeService,
  createOrderEditService,
  createDraftOrderService,
  createClaimExchangeService,
  createCreditLineService,
} from "./order";
import {
  createPaymentService,
  createProviderRegistry,
  createRefundReasonService,
  type PaymentProvider,
  type ProviderRegistry,
} from "./payment";
import { createPriceListService, createPricePreferenceService, createPricingService } from "./pricing";
import { createProductService } from "./product";
import { createPromotionService } from "./promotion";
import { createRegionService } from "./region";
import { createSalesChannelService } from "./sales-channel";
import { createStockLocationService } from "./stock-location";
import { createStoreService } from "./store";
import { createTaxService } from "./tax";
import { createInviteService, createUserService } from "./user";

// The recorder behind steps' `ctx.emit`, for the composition root and tests that build an engine.
export { eventOutbox } from "./event";

/** What module services need beyond the database: the process's configuration. */
export interface ModulesOptions {
  /**
   * The server secret (`JWT_SECRET`), from which the keys sealing stored secrets (notification
   * data, webhook secrets, MFA secrets) are derived. A process without it (migrate, seed) cannot use them.
   */
  secret?: Uint8Array | string;
  /** `SMTP_URL` and the logger of the `log` provider: the default notification providers. */
  smtpUrl?: string;
  logger?: NotificationLogger;
  /** Notification providers in place of the defaults (tests). */
  notificationProviders?: NotificationProvider[];
  /** scrypt cost of new password hashes (`SCRYPT_LOG_N`, default 15). */
  scryptLogN?: number;
  /** Webhook endpoints may be loopback or private addresses (`WEBHOOK_ALLOW_PRIVATE`). */
  webhookAllowPrivate?: boolean;
  /**
   * Uploads: where files are stored (default the local disk, `.kasse/uploads`, served at
   * `http://localhost:9000/static/uploads`), Kasse's own address (`publicUrl`, default
   * `http://localhost:9000`: stored references to its files are answered against it), the limits
   * of an upload and the store's quota (default 10 MiB, 10 files; 5 GiB and 50,000 files stored).
   */
  files?: { storage: FileStorage; publicUrl?: string } & FileLimits;
  /** Payment providers registered beside the built-in ones (`pp_system_default`, `pp_test`): Stripe when configured. */
  paymentProviders?: PaymentProvider[];
  /** The fulfillment providers; the built-in ones (`manual_manual`, `ful_test`) by default. */
  fulfillmentProviders?: FulfillmentProviderRegistry;
}

/**
 * Every module's service, built once per process by the composition root (`@kasse/runtime`), each
 * on first use. They read the transaction in progress (ambient), else the process's database, so a
 * flow's `transaction(async () => …)` holds every module it calls.
 * @example
 * const modules = createModules({ secret: config.jwt.secret });
 * await transaction(() => modules.cart.lock(cartId));
 */
export function createModules(options: ModulesOptions = {}) {
  const secret = (service: string, what: string) => {
    if (!options.secret)
      throw errors.unexpectedState(
        `This process has no ${service} service (it runs without JWT_SECRET): it cannot ${what}`,
      );
    return options.secret;
  };
  // One registry per container: the built-in providers and the configured ones.
  let registry: ProviderRegistry | undefined;
  const paymentRegistry = () => (registry ??= createProviderRegistry(options.paymentProviders));
  return lazily({
    salesChannel: () => createSalesChannelService(),
    product: () => createProductService(),
    inventory: () => createInventoryService(),
    stockLocation: () => createStockLocationService(),
    customer: () => createCustomerService(),
    notification: () =>
      createNotificationService({
        providers:
          options.notificationProviders ??
          defaultNotificationProviders({ smtpUrl: options.smtpUrl, logger: options.logger }),
        secret: secret("notification", "deliver notifications"),
      }),
    authTokens: () => createOneTimeTokenService(),
    fulfillment: () => createFulfillmentService(),
    fulfillmentRecord: () => createFulfillmentRecordService(),
    shippingOptionType: () => createShippingOptionTypeService(),
    fulfillmentProviders: () => options.fulfillmentProviders ?? defaultFulfillmentProviders,
    payment: () => createPaymentService(paymentRegistry()),
    refundReason: () => createRefundReasonService(),
    currency: () => createCurrencyService(),
    store: () => createStoreService(),
    file: () =>
      createFileService(
        createFileProvider(
          options.files?.storage ?? {
            provider: "local",
            dir: resolve(".kasse", "uploads"),
            baseUrl: "http://localhost:9000/static/uploads",
          },
        ),
        {
          maxBytes: options.files?.maxBytes ?? 10 * 1024 * 1024,
          maxFiles: options.files?.maxFiles ?? 10,
          quotaBytes: options.files?.quotaBytes ?? 5 * 1024 ** 3,
          quotaFiles: options.files?.quotaFiles ?? 50_000,
        },
        options.files?.publicUrl ?? "http://localhost:9000",
      ),
    region: () => createRegionService(),
    tax: () => createTaxService(),
    pricing: () => createPricingService(),
    priceList: () => createPriceListService(),
    pricePreference: () => createPricePreferenceService(),
    auth: () => createAuthService({ scrypt: { logN: options.scryptLogN }, secret: options.secret }),
    user: () => createUserService(),
    invite: () => createInviteService(),
    apiKey: () => createApiKeyService(),
    promotion: () => createPromotionService(),
    cart: () => createCartService(),
    order: () => createOrderService(),
    returnReason: () => createReturnReasonService(),
    orderReturn: () => createReturnService(),
    returnChange: () => createReturnChangeService(),
    orderEdit: () => createOrderEditService(),
    draftOrder: () => createDraftOrderService(),
    claimExchange: () => createClaimExchangeService(),
    creditLine: () => createCreditLineService(),
    orderTransfer: () => createOrderTransferService(),
    events: () => createEventService(),
    webhooks: () =>
      createWebhookService({
        secret: secret("webhook", "sign webhooks"),
        allowPrivate: options.webhookAllowPrivate,
      }),
  });
}

/**
 * Every module's service (see {@link createModules}). An interface, not an alias, so that the
 * declarations of what is typed over it (the flows' workflows, `Workflow<I, R, Modules>`) name it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Modules extends ReturnType<typeof createModules> {}

/** An object whose properties are built by their builder on first read, once. */
function lazily<T extends Record<string, () => unknown>>(builders: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const target = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(builders) as Array<keyof T>) {
    Object.defineProperty(target, name, {
      enumerable: true,
      get() {
        const value = builders[name]!() as ReturnType<T[typeof name]>;
        Object.defineProperty(target, name, { value, enumerable: true });
        return value;
      },
      configurable: true,
    });
  }
  return target;
}
