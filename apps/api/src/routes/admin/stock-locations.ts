import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend, View } from "@kasse/db";
import { FulfillmentSetCreate, FulfillmentSetView } from "@kasse/modules/fulfillment";
import {
  StockLocationCreate,
  StockLocationFulfillmentProviders,
  StockLocationSalesChannels,
  StockLocationUpdate,
  type StockLocation,
  StockLocationView,
} from "@kasse/modules/stock-location";
import {
  createLocationFulfillmentSet,
  deleteStockLocationWorkflow,
  setStockLocationFulfillmentProviders,
  setStockLocationSalesChannels,
} from "@kasse/flows";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { parseFields, wants, type FieldSelection } from "../../http/fields";
import { Answer, ListQueryOf, IdParams } from "../../http/schemas";

/**
 * A location with, when `fields` asks, Medusa's `fulfillment_sets` (with their service zones and,
 * as asked, the zones' geo zones and shipping options) and `fulfillment_providers` (the registered
 * fulfillment providers the location uses: every one but those turned off for it).
 */
const AdminStockLocationView = Extend(StockLocationView, {
  fulfillment_sets: Type.Array(FulfillmentSetView),
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
    const excluded =
      selection && wants(selection, "fulfillment_providers")
        ? await locations.excludedProviders(items.map((l) => l.id))
        : undefined;
    const providersOf = (id: string) => {
      const off = excluded?.get(id) ?? [];
      return app.modules.fulfillmentProviders
        .ids()
        .filter((provider) => !off.includes(provider))
        .map((provider) => ({ id: provider, is_enabled: true }));
    };
    const asks = (path: string) => !!selection && wants(selection, `fulfillment_sets${path}`);
    const sets = asks("")
      ? await app.modules.fulfillment.setsForLocations(
          items.map((l) => l.id),
          {
            geo_zones: asks(".service_zones.geo_zones"),
            shipping_options: asks(".service_zones.shipping_options"),
            shipping_profile: asks(".service_zones.shipping_options.shipping_profile"),
          },
        )
      : undefined;
    const ids = [...new Set(items.flatMap((l) => l.sales_channel_ids))];
    const { items: channels } = ids.length
      ? await app.modules.salesChannel.list({ id: ids }, { limit: ids.length, offset: 0 })
      : { items: [] };
    const byId = new Map(channels.map(({ deleted_at: _deleted, ...c }) => [c.id, c]));
    return items.map(({ sales_channel_ids, ...location }) => ({
      ...location,
      sales_channels: sales_channel_ids.flatMap((id) => byId.get(id) ?? []),
      ...(sets ? { fulfillment_sets: sets.get(location.id) ?? [] } : {}),
      ...(excluded ? { fulfillment_providers: providersOf(location.id) } : {}),
    }));
  };
  const one = async (location: StockLocation, selection?: FieldSelection) => (await shape([location], selection))[0]!;
  /** What a fulfillment set's creation answers: the location with its sets, zones and geo zones. */
  const withSets = parseFields("*,*fulfillment_sets.service_zones.geo_zones");

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
    // A location's fulfillment sets go with it (a saga over the fulfillment and stock-location modules).
    delete: (id) => app.infra.engine.execute(deleteStockLocationWorkflow, { id }),
  });

  app.post(
    "/stock-locations/:id/fulfillment-sets",
    {
      schema: {
        params: IdParams,
        body: FulfillmentSetCreate,
        response: Answer("stock_location", AdminStockLocationView),
      },
    },
    async (request) => {
      const location = await createLocationFulfillmentSet(app.modules, request.params.id, request.body);
      return { stock_location: await one(location, withSets) };
    },
  );

  /** What a change of providers answers: the location with the providers it uses now. */
  const withProviders = parseFields("*,*fulfillment_providers");
  app.post(
    "/stock-locations/:id/fulfillment-providers",
    {
      schema: {
        params: IdParams,
        body: StockLocationFulfillmentProviders,
        response: Answer("stock_location", AdminStockLocationView),
      },
    },
    async (request) => {
      const location = await setStockLocationFulfillmentProviders(app.modules, request.params.id, request.body);
      return { stock_location: await one(location, withProviders) };
    },
  );

  app.post(
    "/stock-locations/:id/sales-channels",
    {
      schema: {
        params: IdParams,
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
