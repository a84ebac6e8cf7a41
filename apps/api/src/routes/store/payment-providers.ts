import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import type { App } from "../../app-type";
import { ListAnswer, ListQueryOf, listResponse } from "../../http/schemas";
import { PaymentProviderView } from "@kasse/modules/payment";

const ListProviders = ListQueryOf({}, { region_id: Id({ minLength: 1 }), is_enabled: Type.Optional(Type.Boolean()) });

/** `GET /store/payment-providers?region_id=`: the region's providers this process can run. */
export default async function paymentProviders(app: App): Promise<void> {
  app.get(
    "/payment-providers",
    { schema: { querystring: ListProviders, response: ListAnswer("payment_providers", PaymentProviderView) } },
    async (request) => {
      const { region_id, is_enabled, limit, offset } = request.query;
      const region = await app.modules.region.retrieve(region_id);
      const available = region.payment_providers
        .filter((p) => app.modules.payment.providers.has(p.id))
        .filter((p) => is_enabled === undefined || p.is_enabled === is_enabled);
      return listResponse("payment_providers", available.slice(offset, offset + limit), available.length, {
        limit,
        offset,
      });
    },
  );
}
