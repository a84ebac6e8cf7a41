import type { App } from "../../app-type";
import { allowOrigins } from "../../plugins/cors";
import apiKeysRoutes from "./api-keys";
import usersRoutes from "./users";
import invitesRoutes from "./invites";
import salesChannelsRoutes from "./sales-channels";
import salesChannelProductsRoutes from "./sales-channel-products";
import productsRoutes from "./products";
import collectionsRoutes from "./collections";
import productCategoriesRoutes from "./product-categories";
import productTagsRoutes from "./product-tags";
import productTypesRoutes from "./product-types";
import currenciesRoutes from "./currencies";
import regionsRoutes from "./regions";
import taxRegionsRoutes from "./tax-regions";
import pricePreferencesRoutes from "./price-preferences";
import priceListsRoutes from "./price-lists";
import stockLocationsRoutes from "./stock-locations";
import inventoryItemsRoutes from "./inventory-items";
import reservationsRoutes from "./reservations";
import customersRoutes from "./customers";
import ordersRoutes from "./orders";
import paymentsRoutes from "./payments";
import paymentCollectionsRoutes from "./payment-collections";
import returnReasonsRoutes from "./return-reasons";
import returnsRoutes from "./returns";
import returnChangesRoutes from "./return-changes";
import orderEditsRoutes from "./order-edits";
import draftOrdersRoutes from "./draft-orders";
import customerGroupsRoutes from "./customer-groups";
import notificationsRoutes from "./notifications";
import webhooksRoutes from "./webhooks";
import shippingProfilesRoutes from "./shipping-profiles";
import shippingOptionsRoutes from "./shipping-options";
import shippingOptionTypesRoutes from "./shipping-option-types";
import fulfillmentSetsRoutes from "./fulfillment-sets";
import promotionsRoutes from "./promotions";
import paymentProvidersRoutes from "./payment-providers";
import campaignsRoutes from "./campaigns";
import workflowExecutionsRoutes from "./workflow-executions";
import queuesRoutes from "./queues";
import dashboardShellRoutes from "./dashboard-shell";
import storesRoutes from "./stores";
import exchangesRoutes from "./exchanges";
import claimsRoutes from "./claims";
import refundReasonsRoutes from "./refund-reasons";
import productOptionsRoutes from "./product-options";
import fulfillmentProvidersRoutes from "./fulfillment-providers";
import uploadsRoutes from "./uploads";
import taxRatesRoutes from "./tax-rates";
import productVariantsRoutes from "./product-variants";

/**
 * `/admin/*`: every route here, however its path was spelled, allows `ADMIN_CORS` origins and
 * requires an admin (a user's JWT or a secret API key): hooks of this group, not checks on the URL.
 * Add a resource with an import of its file and its name in the list below.
 */
export default async function admin(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.admin);
  app.addHook("onRequest", app.guards.admin);
  for (const routes of [
    apiKeysRoutes,
    usersRoutes,
    invitesRoutes,
    salesChannelsRoutes,
    salesChannelProductsRoutes,
    productsRoutes,
    collectionsRoutes,
    productCategoriesRoutes,
    productTagsRoutes,
    productTypesRoutes,
    currenciesRoutes,
    regionsRoutes,
    taxRegionsRoutes,
    pricePreferencesRoutes,
    priceListsRoutes,
    stockLocationsRoutes,
    inventoryItemsRoutes,
    reservationsRoutes,
    customersRoutes,
    ordersRoutes,
    paymentsRoutes,
    paymentCollectionsRoutes,
    returnReasonsRoutes,
    returnsRoutes,
    returnChangesRoutes,
    orderEditsRoutes,
    draftOrdersRoutes,
    customerGroupsRoutes,
    notificationsRoutes,
    webhooksRoutes,
    shippingProfilesRoutes,
    shippingOptionsRoutes,
    shippingOptionTypesRoutes,
    fulfillmentSetsRoutes,
    promotionsRoutes,
    paymentProvidersRoutes,
    campaignsRoutes,
    workflowExecutionsRoutes,
    queuesRoutes,
    dashboardShellRoutes,
    storesRoutes,
    exchangesRoutes,
    claimsRoutes,
    refundReasonsRoutes,
    productOptionsRoutes,
    fulfillmentProvidersRoutes,
    uploadsRoutes,
    taxRatesRoutes,
    productVariantsRoutes,
  ])
    await app.register(routes);
}
