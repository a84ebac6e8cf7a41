import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { SalesChannelCreate, SalesChannelUpdate, SalesChannelView } from "@kasse/modules/sales-channel";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ArrayQuery, ListQuery } from "../../http/schemas";

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
  crudRoutes(app, {
    path: "/sales-channels",
    one: "sales_channel",
    many: "sales_channels",
    view: SalesChannelView,
    list: { query: ListSalesChannels, run: (filters, page) => channels.list(filters, page) },
    retrieve: (id) => channels.retrieve(id),
    create: { body: SalesChannelCreate, run: (body) => channels.create(body) },
    update: { body: SalesChannelUpdate, run: (id, body) => channels.update(id, body) },
    delete: (id) => channels.delete(id),
  });
}
