import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import type { App } from "../../app-type";
import { providerPage } from "../../http/provider-list";
import { ListAnswer, ListQueryOf } from "../../http/schemas";
import { PaymentProviderView } from "@kasse/modules/payment";

const ListProviders = ListQueryOf({ id: Id() }, { is_enabled: Type.Optional(Type.Boolean()) });

/**
 * `GET /admin/payments/payment-providers` (Medusa's path, `sdk.admin.payment.listPaymentProviders()`):
 * the payment providers this process can run, which an admin picks from when setting up a region.
 * Every registered provider is enabled.
 */
export default async function paymentProviders(app: App): Promise<void> {
  app.get(
    "/payments/payment-providers",
    { schema: { querystring: ListProviders, response: ListAnswer("payment_providers", PaymentProviderView) } },
    async (request) => providerPage("payment_providers", app.modules.payment.providers.ids(), request.query),
  );
}
