import { Type } from "@sinclair/typebox";
import { errors, Id } from "@kasse/db";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ListAnswer, ListQueryOf, listResponse } from "../../http/schemas";
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
    async (request) => {
      const { id, is_enabled, limit, offset, order, fields } = request.query;
      // Providers are named only by id, so that is the one order there is.
      if (order !== undefined && !["id", "+id", "-id"].includes(order))
        throw errors.invalidData(`Cannot order by '${order.replace(/^[-+]/, "")}'`);
      const ids = app.modules.payment.providers.ids().sort();
      if (order === "-id") ids.reverse();
      const matching = ids
        .filter((p) => (!id || id.includes(p)) && is_enabled !== false)
        .map((p) => ({ id: p, is_enabled: true }));
      return listResponse(
        "payment_providers",
        project(matching.slice(offset, offset + limit), parseFields(fields)),
        matching.length,
        { limit, offset },
      );
    },
  );
}
