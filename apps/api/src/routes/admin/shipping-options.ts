import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/db";
import { ShippingOptionCreate, ShippingOptionUpdate, ShippingOptionView } from "@kasse/modules/fulfillment";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListOptions = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    region_id: Type.Optional(ArrayQuery(Id())),
    stock_location_id: Type.Optional(ArrayQuery(Id())),
    shipping_profile_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

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

  app.get("/shipping-options", { schema: { querystring: ListOptions, response: ListAnswer("shipping_options", ShippingOptionView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await fulfillment.listOptions(filters, { limit, offset, order });
    return listResponse("shipping_options", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/shipping-options", { schema: { body: ShippingOptionCreate, response: Answer("shipping_option", ShippingOptionView) } }, async (request) => {
    await requireRegions(request.body);
    return { shipping_option: await fulfillment.createOption(request.body) };
  });

  app.get("/shipping-options/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("shipping_option", ShippingOptionView) } }, async (request) => ({
    shipping_option: project(await fulfillment.retrieveOption(request.params.id), parseFields(request.query.fields)),
  }));

  app.post("/shipping-options/:id", { schema: { params: Params, body: ShippingOptionUpdate, response: Answer("shipping_option", ShippingOptionView) } }, async (request) => {
    await requireRegions(request.body);
    return { shipping_option: await fulfillment.updateOption(request.params.id, request.body) };
  });

  app.delete("/shipping-options/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await fulfillment.deleteOption(request.params.id);
    return { id: request.params.id, object: "shipping_option", deleted: true as const };
  });
}
