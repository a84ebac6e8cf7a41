import { Type } from "@sinclair/typebox";
import { FulfillmentSetView, ServiceZoneCreate, ServiceZoneUpdate, ServiceZoneView } from "@kasse/modules/fulfillment";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { Answer, Deleted, DeleteResponse, RetrieveQuery, ChildParams, IdParams, deleted } from "../../http/schemas";

const ZoneParams = ChildParams("zone_id");
const DeletedZone = { 200: Type.Object({ ...DeleteResponse.properties, parent: FulfillmentSetView }) };

/**
 * Admin fulfillment sets and their service zones (Medusa's `/admin/fulfillment-sets`): a set is
 * created from its stock location (`POST /admin/stock-locations/{id}/fulfillment-sets`); here it
 * gets its zones, each made of geo zones (countries, provinces, cities, postal codes).
 */
export default async function fulfillmentSets(app: App): Promise<void> {
  const fulfillment = app.modules.fulfillment;

  app.delete("/fulfillment-sets/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await fulfillment.deleteSet(request.params.id);
    return deleted(request.params.id, "fulfillment_set");
  });

  app.post(
    "/fulfillment-sets/:id/service-zones",
    { schema: { params: IdParams, body: ServiceZoneCreate, response: Answer("fulfillment_set", FulfillmentSetView) } },
    async (request) => ({ fulfillment_set: await fulfillment.createZone(request.params.id, request.body) }),
  );

  app.get(
    "/fulfillment-sets/:id/service-zones/:zone_id",
    { schema: { params: ZoneParams, querystring: RetrieveQuery, response: Answer("service_zone", ServiceZoneView) } },
    async (request) => {
      const zone = await fulfillment.retrieveZone(request.params.id, request.params.zone_id);
      return { service_zone: project(zone, parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/fulfillment-sets/:id/service-zones/:zone_id",
    {
      schema: { params: ZoneParams, body: ServiceZoneUpdate, response: Answer("fulfillment_set", FulfillmentSetView) },
    },
    async (request) => ({
      fulfillment_set: await fulfillment.updateZone(request.params.id, request.params.zone_id, request.body),
    }),
  );

  app.delete(
    "/fulfillment-sets/:id/service-zones/:zone_id",
    { schema: { params: ZoneParams, response: DeletedZone } },
    async (request) => {
      await fulfillment.deleteZone(request.params.id, request.params.zone_id);
      return deleted(request.params.zone_id, "service_zone", {
        parent: await fulfillment.retrieveSet(request.params.id),
      });
    },
  );
}
