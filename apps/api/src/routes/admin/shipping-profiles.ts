import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { ShippingProfileCreate, ShippingProfileView } from "@kasse/modules/fulfillment";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListProfiles = Type.Object(
  { ...ListQuery, q: Type.Optional(Title()), id: Type.Optional(ArrayQuery(Id())), type: Type.Optional(ArrayQuery(Code())) },
  { additionalProperties: false },
);

/** Admin shipping profiles (docs/CONTRACT.md). */
export default async function shippingProfiles(app: App): Promise<void> {
  const fulfillment = app.modules.fulfillment;

  app.get("/shipping-profiles", { schema: { querystring: ListProfiles, response: ListAnswer("shipping_profiles", ShippingProfileView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await fulfillment.listProfiles(filters, { limit, offset, order });
    return listResponse("shipping_profiles", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/shipping-profiles", { schema: { body: ShippingProfileCreate, response: Answer("shipping_profile", ShippingProfileView) } }, async (request) => ({
    shipping_profile: await fulfillment.createProfile(request.body),
  }));

  app.get("/shipping-profiles/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("shipping_profile", ShippingProfileView) } }, async (request) => ({
    shipping_profile: project(await fulfillment.retrieveProfile(request.params.id), parseFields(request.query.fields)),
  }));

  app.delete("/shipping-profiles/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await fulfillment.deleteProfile(request.params.id);
    return { id: request.params.id, object: "shipping_profile", deleted: true as const };
  });
}
