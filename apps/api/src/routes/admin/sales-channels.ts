import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { SalesChannelCreate, SalesChannelUpdate, SalesChannelView } from "@kasse/modules/sales-channel";
import { listSalesChannels } from "@kasse/flows";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListSalesChannels = ListQueryOf(
  { id: Id(), name: Title(), publishable_key_id: Id(), location_id: Id() },
  { q: Type.Optional(Title()), is_disabled: Type.Optional(Type.Boolean()) },
);

/** Admin sales channels: CRUD (docs/CONTRACT.md). */
export default async function salesChannels(app: App): Promise<void> {
  const channels = app.modules.salesChannel;
  const operations = standardCrud(channels, {
    query: ListSalesChannels,
    create: SalesChannelCreate,
    update: SalesChannelUpdate,
  });
  // Store requests see only enabled channels, through the publishable-key cache: a change is in force at once here.
  const changed = <T>(result: T): T => {
    app.publishableKeys.clear();
    return result;
  };
  crudRoutes(app, {
    path: "/sales-channels",
    one: "sales_channel",
    many: "sales_channels",
    view: SalesChannelView,
    ...operations,
    update: { body: SalesChannelUpdate, run: async (id, body) => changed(await channels.update(id, body)) },
    delete: async (id) => changed(await channels.delete(id)),
    list: { query: ListSalesChannels, run: (filters, page) => listSalesChannels(app.modules, filters, page) },
  });
}
