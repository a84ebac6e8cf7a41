import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/db";
import { ShippingOptionCreate, ShippingOptionUpdate, ShippingOptionView } from "@kasse/modules/fulfillment";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListOptions = ListQueryOf({ id: Id(), region_id: Id(), stock_location_id: Id(), shipping_profile_id: Id() }, { q: Type.Optional(Title()) });

/** Admin shipping options (docs/CONTRACT.md): flat prices per currency or per region. */
export default async function shippingOptions(app: App): Promise<void> {
  const fulfillment = app.modules.fulfillment;

  /** The option's region and its regional prices must name live regions (a module never reads another's tables). */
  const requireRegions = async (body: ShippingOptionUpdate) => {
    const ids = [...new Set([body.region_id, ...(body.prices ?? []).map((p) => ("region_id" in p ? p.region_id : null))].filter((id): id is string => !!id))];
    if (ids.length === 0) return;
    const { items } = await app.modules.region.list({ id: ids }, { limit: ids.length, offset: 0 });
    const missing = ids.filter((id) => !items.some((region) => region.id === id));
    if (missing.length) throw errors.invalidData(`Regions with ids: ${missing.join(", ")} were not found`);
  };

  crudRoutes(app, {
    path: "/shipping-options",
    one: "shipping_option",
    many: "shipping_options",
    view: ShippingOptionView,
    list: { query: ListOptions, run: (filters, page) => fulfillment.listOptions(filters, page) },
    retrieve: (id) => fulfillment.retrieveOption(id),
    create: { body: ShippingOptionCreate, run: async (body) => (await requireRegions(body), fulfillment.createOption(body)) },
    update: { body: ShippingOptionUpdate, run: async (id, body) => (await requireRegions(body), fulfillment.updateOption(id, body)) },
    delete: (id) => fulfillment.deleteOption(id),
  });
}
