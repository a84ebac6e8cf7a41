import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { SalesChannelCreate, SalesChannelUpdate, SalesChannelView } from "@kasse/modules/sales-channel";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListSalesChannels = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    name: Type.Optional(ArrayQuery(Title())),
    is_disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Admin sales channels: CRUD (docs/CONTRACT.md). */
export default async function salesChannels(app: App): Promise<void> {
  const channels = app.modules.salesChannel;

  app.get("/sales-channels", { schema: { querystring: ListSalesChannels, response: ListAnswer("sales_channels", SalesChannelView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await channels.list(filters, { limit, offset, order });
    return listResponse("sales_channels", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/sales-channels", { schema: { body: SalesChannelCreate, response: Answer("sales_channel", SalesChannelView) } }, async (request) => {
    return { sales_channel: await channels.create(request.body) };
  });

  app.get("/sales-channels/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("sales_channel", SalesChannelView) } }, async (request) => {
    return { sales_channel: project(await channels.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/sales-channels/:id", { schema: { params: Params, body: SalesChannelUpdate, response: Answer("sales_channel", SalesChannelView) } }, async (request) => {
    return { sales_channel: await channels.update(request.params.id, request.body) };
  });

  app.delete("/sales-channels/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await channels.delete(request.params.id);
    return { id: request.params.id, object: "sales_channel", deleted: true as const };
  });
}
