import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { StockLocationCreate, StockLocationSalesChannels, StockLocationUpdate, type StockLocation, StockLocationView } from "@kasse/modules/stock-location";
import { setStockLocationSalesChannels } from "@kasse/flows";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListStockLocations = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    name: Type.Optional(ArrayQuery(Title())),
    sales_channel_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

/** Admin stock locations: CRUD with an address, and their sales channels (docs/CONTRACT.md). */
export default async function stockLocations(app: App): Promise<void> {
  const locations = app.modules.stockLocation;

  /** Replaces each location's `sales_channel_ids` by the channels themselves: one query for the page. */
  const shape = async (items: StockLocation[]) => {
    const ids = [...new Set(items.flatMap((l) => l.sales_channel_ids))];
    const { items: channels } = ids.length ? await app.modules.salesChannel.list({ id: ids }, { limit: ids.length, offset: 0 }) : { items: [] };
    const byId = new Map(channels.map(({ deleted_at: _deleted, ...c }) => [c.id, c]));
    return items.map(({ sales_channel_ids, ...location }) => ({ ...location, sales_channels: sales_channel_ids.flatMap((id) => byId.get(id) ?? []) }));
  };
  const one = async (location: StockLocation) => (await shape([location]))[0]!;

  app.get("/stock-locations", { schema: { querystring: ListStockLocations, response: ListAnswer("stock_locations", StockLocationView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await locations.list(filters, { limit, offset, order });
    return listResponse("stock_locations", project(await shape(items), parseFields(fields)), count, { limit, offset });
  });

  app.post("/stock-locations", { schema: { body: StockLocationCreate, response: Answer("stock_location", StockLocationView) } }, async (request) => {
    return { stock_location: await one(await locations.create(request.body)) };
  });

  app.get("/stock-locations/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("stock_location", StockLocationView) } }, async (request) => {
    return { stock_location: project(await one(await locations.retrieve(request.params.id)), parseFields(request.query.fields)) };
  });

  app.post("/stock-locations/:id", { schema: { params: Params, body: StockLocationUpdate, response: Answer("stock_location", StockLocationView) } }, async (request) => {
    return { stock_location: await one(await locations.update(request.params.id, request.body)) };
  });

  app.delete("/stock-locations/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await locations.delete(request.params.id);
    return { id: request.params.id, object: "stock_location", deleted: true as const };
  });

  app.post("/stock-locations/:id/sales-channels", { schema: { params: Params, body: StockLocationSalesChannels, response: Answer("stock_location", StockLocationView) } }, async (request) => {
    return { stock_location: await one(await setStockLocationSalesChannels(app.modules, request.params.id, request.body)) };
  });
}
