import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/core";
import type { App } from "../../app-type";
import { providerPage } from "../../http/provider-list";
import { ListAnswer, ListQueryOf, NoFields } from "../../http/schemas";

// Partial: `fields` may narrow it.
const ProviderView = Type.Partial(Type.Object({ id: Type.String(), is_enabled: Type.Boolean() }));
const OptionView = Type.Object({ id: Type.String(), is_return: Type.Optional(Type.Boolean()) });
const ListProviders = ListQueryOf(
  { id: Id(), stock_location_id: Id() },
  { q: Type.Optional(Title()), is_enabled: Type.Optional(Type.Boolean()) },
);
const Params = Type.Object({ id: Id() }, { additionalProperties: false });

/**
 * `GET /admin/fulfillment-providers` and `/{id}/options` (`sdk.admin.fulfillmentProvider`): the
 * providers this process registered (`manual_manual`, with which an admin records fulfillments
 * and shipments by hand, and any configured), as the fulfillment saga finds them. A stock
 * location uses each of them unless it turned it off (`POST /admin/stock-locations/{id}/fulfillment-providers`).
 */
export default async function fulfillmentProviders(app: App): Promise<void> {
  const registry = app.modules.fulfillmentProviders;

  /** The providers any of the live locations `ids` uses (each uses every one it has not turned off); an unknown location none. */
  const usedAt = async (ids: string[]): Promise<string[]> => {
    const known = [...(await app.modules.stockLocation.existing(ids))];
    const excluded = await app.modules.stockLocation.excludedProviders(known);
    return registry.ids().filter((provider) => known.some((id) => !excluded.get(id)?.includes(provider)));
  };

  app.get(
    "/fulfillment-providers",
    { schema: { querystring: ListProviders, response: ListAnswer("fulfillment_providers", ProviderView) } },
    async (request) => {
      const { stock_location_id, ...query } = request.query;
      return providerPage(
        "fulfillment_providers",
        stock_location_id?.length ? await usedAt(stock_location_id) : registry.ids(),
        query,
      );
    },
  );

  app.get(
    "/fulfillment-providers/:id/options",
    {
      schema: {
        params: Params,
        querystring: NoFields,
        response: {
          200: Type.Object(
            { fulfillment_options: Type.Array(OptionView) },
            { description: "What the provider can fulfil with" },
          ),
        },
      },
    },
    async (request) => {
      if (!registry.has(request.params.id))
        throw errors.notFound(`Fulfillment provider with id: ${request.params.id} was not found`);
      return { fulfillment_options: [...registry.get(request.params.id).options] };
    },
  );
}
