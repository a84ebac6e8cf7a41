import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import type { App } from "../../app-type";
import { SalesChannelView } from "@kasse/modules/sales-channel";
import { Answer, IdParams } from "../../http/schemas";

const Body = Type.Object(
  { add: Type.Optional(Type.Array(Id({ minLength: 1 }))), remove: Type.Optional(Type.Array(Id({ minLength: 1 }))) },
  { additionalProperties: false },
);

/** `POST /admin/sales-channels/{id}/products` `{add?, remove?}`: links products to a channel (docs/CONTRACT.md). */
export default async function salesChannelProducts(app: App): Promise<void> {
  app.post(
    "/sales-channels/:id/products",
    { schema: { params: IdParams, body: Body, response: Answer("sales_channel", SalesChannelView) } },
    async (request) => {
      const channel = await app.modules.salesChannel.retrieve(request.params.id);
      await app.modules.product.linkSalesChannelProducts(channel.id, request.body);
      return { sales_channel: channel };
    },
  );
}
