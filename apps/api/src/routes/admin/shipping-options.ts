import { Type } from "@sinclair/typebox";
import { errors, Id, MoneyView, Title } from "@kasse/core";
import { Extend, OrNull, View } from "@kasse/db";
import {
  ShippingOptionCreate,
  ShippingOptionUpdate,
  ShippingOptionView,
  type ShippingOption,
} from "@kasse/modules/fulfillment";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { wants } from "../../http/fields";
import { ArrayQuery, IdParams, ListQuery } from "../../http/schemas";

/** An option with, when asked for, its service zone and where it ships from in Medusa's terms (see `withLocation`). */
const AdminShippingOptionView = Extend(ShippingOptionView, {
  service_zone: Type.Optional(
    OrNull(
      View({
        id: Type.String(),
        name: Type.String(),
        fulfillment_set_id: Type.String(),
        fulfillment_set: View({
          id: Type.String(),
          name: Type.String(),
          type: Type.String(),
          location: OrNull(View({ id: Type.String(), name: Type.String() })),
        }),
      }),
    ),
  ),
});
const OrderShippingOptions = Type.Object({
  shipping_options: Type.Array(
    Extend(AdminShippingOptionView, {
      calculated_price: View({ calculated_amount: MoneyView(), currency_code: Type.String() }),
    }),
  ),
});
const ListOptions = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    region_id: Type.Optional(ArrayQuery(Id())),
    stock_location_id: Type.Optional(ArrayQuery(Id())),
    shipping_profile_id: Type.Optional(ArrayQuery(Id())),
    service_zone_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

/** Admin shipping options (docs/CONTRACT.md): flat prices per currency or per region. */
export default async function shippingOptions(app: App): Promise<void> {
  const fulfillment = app.modules.fulfillment;

  /** The option's region and its regional prices must name live regions (a module never reads another's tables). */
  const requireRegions = async (body: ShippingOptionUpdate) => {
    const ids = [
      ...new Set(
        [body.region_id, ...(body.prices ?? []).map((p) => ("region_id" in p ? p.region_id : null))].filter(
          (id): id is string => !!id,
        ),
      ),
    ];
    if (ids.length === 0) return;
    const { items } = await app.modules.region.list({ id: ids }, { limit: ids.length, offset: 0 });
    const missing = ids.filter((id) => !items.some((region) => region.id === id));
    if (missing.length) throw errors.invalidData(`Regions with ids: ${missing.join(", ")} were not found`);
  };

  /**
   * Medusa reaches the place an option ships from through `service_zone.fulfillment_set.location`
   * (the fulfillment form preselects it, order detail reads the set's `type`). An option of a
   * service zone answers its zone and set; one bound to a stock location without a zone (the
   * contract's options) answers that location as a shipping set's; otherwise null. One query per
   * relation for the page, when asked for.
   */
  const withLocation = async <O extends ShippingOption>(options: O[]) => {
    const zones = await fulfillment.zonesWithSets([
      ...new Set(options.flatMap((o) => (o.service_zone_id ? [o.service_zone_id] : []))),
    ]);
    const ids = [
      ...new Set([
        ...options.flatMap((o) => (o.stock_location_id ? [o.stock_location_id] : [])),
        ...[...zones.values()].flatMap((z) =>
          z.fulfillment_set.stock_location_id ? [z.fulfillment_set.stock_location_id] : [],
        ),
      ]),
    ];
    const { items } = ids.length
      ? await app.modules.stockLocation.list({ id: ids }, { limit: ids.length, offset: 0 })
      : { items: [] };
    const byId = new Map(items.map((l) => [l.id, { id: l.id, name: l.name }]));
    const locationOf = (id: string | null) => (id ? (byId.get(id) ?? null) : null);
    return options.map((option) => {
      const zone = option.service_zone_id ? zones.get(option.service_zone_id) : undefined;
      if (zone) {
        const { fulfillment_set: set } = zone;
        return {
          ...option,
          service_zone: {
            id: zone.id,
            name: zone.name,
            fulfillment_set_id: set.id,
            fulfillment_set: {
              id: set.id,
              name: set.name,
              type: set.type,
              location: locationOf(set.stock_location_id),
            },
          },
        };
      }
      const location = locationOf(option.stock_location_id);
      return { ...option, service_zone: location ? { fulfillment_set: { type: "shipping", location } } : null };
    });
  };

  // The options an order can be sent with (its region, currency and shipping address, as its
  // checkout offered them) with where each ships from: the exchange and claim forms' outbound shipping.
  app.get(
    "/orders/:id/shipping-options",
    { schema: { params: IdParams, response: { 200: OrderShippingOptions } } },
    async (request) => {
      const order = await app.modules.order.retrieve(request.params.id);
      const options = await fulfillment.optionsForContext({
        region_id: order.region_id,
        currency_code: order.currency_code,
        address: order.shipping_address,
      });
      const located = await withLocation(options.map(({ amount: _, ...option }) => option));
      return {
        shipping_options: located.map((option, i) => ({
          ...option,
          // Medusa answers the price here, in the order's currency.
          calculated_price: { calculated_amount: options[i]!.amount, currency_code: order.currency_code },
        })),
      };
    },
  );
  crudRoutes(app, {
    path: "/shipping-options",
    one: "shipping_option",
    many: "shipping_options",
    view: AdminShippingOptionView,
    // Writes answer the option as stored; reads add where it ships from when `fields` asks.
    present: async (options: ShippingOption[], selection) =>
      selection && wants(selection, "service_zone") ? withLocation(options) : options,
    list: { query: ListOptions, run: (filters, page) => fulfillment.listOptions(filters, page) },
    retrieve: (id) => fulfillment.retrieveOption(id),
    create: {
      body: ShippingOptionCreate,
      view: ShippingOptionView,
      run: async (body) => {
        await requireRegions(body);
        return fulfillment.createOption(body);
      },
    },
    update: {
      body: ShippingOptionUpdate,
      view: ShippingOptionView,
      run: async (id, body) => {
        await requireRegions(body);
        return fulfillment.updateOption(id, body);
      },
    },
    delete: (id) => fulfillment.deleteOption(id),
  });
}
