import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { Extend, View } from "@kasse/db";
import {
  InventoryItemCreate,
  InventoryItemUpdate,
  InventoryLevelBatch,
  InventoryLevelCreate,
  InventoryLevelUpdate,
  InventoryItemView,
  InventoryLevelView,
} from "@kasse/modules/inventory";
import { addInventoryLevel, inventoryLevels, batchInventoryLevels, createInventoryItem } from "@kasse/flows";
import type { App } from "../../app-type";
import { parseFields, project, wants } from "../../http/fields";
import {
  Answer,
  ArrayQuery,
  DeleteResponse,
  Deleted,
  ListAnswer,
  ListQuery,
  RetrieveQuery,
  listResponse,
  ChildParams,
  IdParams,
  deleted,
} from "../../http/schemas";

const LevelParams = ChildParams("location_id");
const ListInventoryItems = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    sku: Type.Optional(ArrayQuery(Code())),
    location_id: Type.Optional(ArrayQuery(Id())),
    // Medusa's form of the same filter: `location_levels[location_id]=…`.
    location_levels: Type.Optional(Type.Object({ location_id: ArrayQuery(Id()) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const ListLevels = Type.Object(
  { ...ListQuery, location_id: Type.Optional(ArrayQuery(Id())) },
  { additionalProperties: false },
);

const One = Answer("inventory_item", InventoryItemView);
// The item with its levels, and the levels as a list page.
/** A level with, when `fields` names them, Medusa's `stock_locations` link: the one location it is at. */
const LevelView = Extend(InventoryLevelView, {
  stock_locations: Type.Optional(Type.Array(View({ id: Type.String(), name: Type.String() }))),
});
const Levels = {
  200: Type.Unsafe<unknown>(
    Type.Object({
      inventory_item: Extend(InventoryItemView, { location_levels: Type.Array(LevelView) }),
      inventory_levels: Type.Array(LevelView),
      count: Type.Integer(),
      offset: Type.Integer(),
      limit: Type.Integer(),
    }),
  ),
};
const LevelBatch = {
  200: Type.Object({
    created: Type.Array(InventoryLevelView),
    updated: Type.Array(InventoryLevelView),
    deleted: Type.Array(Type.String()),
  }),
};
const DeletedLevel = { 200: Type.Object({ ...DeleteResponse.properties, parent: InventoryItemView }) };

/** Admin inventory items and their stock per location (docs/CONTRACT.md "Admin: inventory"). */
export default async function inventoryItems(app: App): Promise<void> {
  const inventory = app.modules.inventory;

  app.get(
    "/inventory-items",
    { schema: { querystring: ListInventoryItems, response: ListAnswer("inventory_items", InventoryItemView) } },
    async (request) => {
      const { limit, offset, order, fields, location_levels, location_id, ...filters } = request.query;
      const locations = [...(location_id ?? []), ...(location_levels?.location_id ?? [])];
      const { items, count } = await inventory.list(
        { ...filters, location_id: locations.length ? locations : undefined },
        { limit, offset, order },
      );
      return listResponse("inventory_items", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.post("/inventory-items", { schema: { body: InventoryItemCreate, response: One } }, async (request) => {
    return { inventory_item: await createInventoryItem(app.modules, request.body) };
  });

  app.get(
    "/inventory-items/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => {
      return {
        inventory_item: project(await inventory.retrieve(request.params.id), parseFields(request.query.fields)),
      };
    },
  );

  app.post(
    "/inventory-items/:id",
    { schema: { params: IdParams, body: InventoryItemUpdate, response: One } },
    async (request) => {
      return { inventory_item: await inventory.update(request.params.id, request.body) };
    },
  );

  app.delete("/inventory-items/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await inventory.delete(request.params.id);
    return deleted(request.params.id, "inventory-item");
  });

  // Both the contract's `{inventory_item: {id, location_levels}}` and Medusa's `inventory_levels` list (docs/CONTRACT.md).
  app.get(
    "/inventory-items/:id/location-levels",
    { schema: { params: IdParams, querystring: ListLevels, response: Levels } },
    async (request) => {
      const { limit, offset, fields, location_id } = request.query;
      const { items, count } = await inventory.listLevels(request.params.id, { location_id }, { limit, offset });
      const selection = parseFields(fields);
      // The levels' locations (the inventory page shows their names): one query for the page, when asked for.
      const ids = wants(selection, "stock_locations") ? [...new Set(items.map((l) => l.location_id))] : [];
      const locations = ids.length
        ? new Map(
            (await app.modules.stockLocation.list({ id: ids }, { limit: ids.length, offset: 0 })).items.map((l) => [
              l.id,
              { id: l.id, name: l.name },
            ]),
          )
        : undefined;
      const levels = project(
        locations
          ? items.map((l) => ({
              ...l,
              stock_locations: locations.has(l.location_id) ? [locations.get(l.location_id)!] : [],
            }))
          : items,
        selection,
      );
      return {
        inventory_item: { id: request.params.id, location_levels: levels },
        ...listResponse("inventory_levels", levels, count, { limit, offset }),
      };
    },
  );

  app.post(
    "/inventory-items/:id/location-levels",
    { schema: { params: IdParams, body: InventoryLevelCreate, response: One } },
    async (request) => {
      await addInventoryLevel(app.modules, request.params.id, request.body);
      return { inventory_item: await inventory.retrieve(request.params.id) };
    },
  );

  // Medusa's admin manages an item's locations with this one call.
  app.post(
    "/inventory-items/:id/location-levels/batch",
    { schema: { params: IdParams, body: InventoryLevelBatch, response: LevelBatch } },
    async (request) => {
      return batchInventoryLevels(app.modules, request.params.id, request.body);
    },
  );

  app.post(
    "/inventory-items/:id/location-levels/:location_id",
    { schema: { params: LevelParams, body: InventoryLevelUpdate, response: One } },
    async (request) => {
      await inventoryLevels.update(app.modules, request.params.id, request.params.location_id, request.body);
      return { inventory_item: await inventory.retrieve(request.params.id) };
    },
  );

  app.delete(
    "/inventory-items/:id/location-levels/:location_id",
    { schema: { params: LevelParams, response: DeletedLevel } },
    async (request) => {
      const level = await inventory.deleteLevel(request.params.id, request.params.location_id);
      return deleted(level.id, "inventory-level", { parent: await inventory.retrieve(request.params.id) });
    },
  );
}
