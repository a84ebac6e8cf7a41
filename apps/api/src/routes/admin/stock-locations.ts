import { Type } from "@sinclair/typebox";
import { Extend, Id, Title, View } from "@kasse/db";
import {
  StockLocationCreate,
  StockLocationSalesChannels,
  StockLocationUpdate,
  type StockLocation,
  StockLocationView,
} from "@kasse/modules/stock-location";
import { setStockLocationSalesChannels } from "@kasse/flows";
import type { App } from "../../app";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { wants, type FieldSelection } from "../../http/fields";
import { Answer, ListQueryOf } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
/**
 * A location with, when `fields` asks, Medusa's `fulfillment_sets` and `fulfillment_providers`.
 * Kasse keeps no fulfillment sets, service zones or geo zones: a shipping option names its stock
 * location and region itself (`GET /admin/shipping-options?stock_location_id=`), so a location
 * has no sets, always; and every location can use every registered fulfillment provider.
 */
const AdminStockLocationView = Extend(StockLocationView, {
  fulfillment_sets: Type.Optional(Type.Array(View({ id: Type.String() }), { maxItems: 0 })),
  fulfillment_providers: Type.Optional(Type.Array(View({ id: Type.String(), is_enabled: Type.Boolean() }))),
});
const ListStockLocations = ListQueryOf(
  { id: Id(), name: Title(), sales_channel_id: Id() },
  { q: Type.Optional(Title()) },
);

/** Admin stock locations: CRUD with an address, and their sales channels (docs/CONTRACT.md). */
export default async function stockLocations(app: App): Promise<void> {
  const locations = app.modules.stockLocation;

  /**
   * Replaces each location's `sales_channel_ids` by the channels themselves (one query for the
   * page), and adds what `fields` asks of {@link AdminStockLocationView}'s extras.
   */
  const shape = async (items: StockLocation[], selection?: FieldSelection) => {
    const providers =
      selection && wants(selection, "fulfillment_providers")
        ? app.modules.fulfillmentProviders.ids().map((id) => ({ id, is_enabled: true }))
        : undefined;
    const sets = selection && wants(selection, "fulfillment_sets");
    const ids = [...new Set(items.flatMap((l) => l.sales_channel_ids))];
    const { items: channels } = ids.length
      ? await app.modules.salesChannel.list({ id: ids }, { limit: ids.length, offset: 0 })
      : { items: [] };
    const byId = new Map(channels.map(({ deleted_at: _deleted, ...c }) => [c.id, c]));
    return items.map(({ sales_channel_ids, ...location }) => ({
      ...location,
      sales_channels: sales_channel_ids.flatMap((id) => byId.get(id) ?? []),
      ...(sets ? { fulfillment_sets: [] } : {}),
      ...(providers ? { fulfillment_providers: providers } : {}),
    }));
  };
  const one = async (location: StockLocation) => (await shape([location]))[0]!;

  const operations = standardCrud(locations, {
    query: ListStockLocations,
    create: StockLocationCreate,
    update: StockLocationUpdate,
  });
  crudRoutes(app, {
    path: "/stock-locations",
    one: "stock_location",
    many: "stock_locations",
    view: AdminStockLocationView,
    present: shape,
    ...operations,
  });

  app.post(
    "/stock-locations/:id/sales-channels",
    {
      schema: {
        params: Params,
        body: StockLocationSalesChannels,
        response: Answer("stock_location", StockLocationView),
      },
    },
    async (request) => {
      return {
        stock_location: await one(await setStockLocationSalesChannels(app.modules, request.params.id, request.body)),
      };
    },
  );
}
