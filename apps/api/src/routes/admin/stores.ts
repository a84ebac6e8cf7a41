import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend } from "@kasse/db";
import { updateStoreWorkflow } from "@kasse/flows";
import { CurrencyView } from "@kasse/modules/currency";
import { StoreCurrencyView, StoreUpdate, StoreView, type Store } from "@kasse/modules/store";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { Answer, Filter, ListAnswer, ListQueryOf, listResponse, RetrieveQuery } from "../../http/schemas";

/** The store's name until an admin renames it. */
const DEFAULT_STORE_NAME = "Kasse Store";

/** The store with each supported currency's `currency`. */
const AdminStoreView = Extend(StoreView, {
  supported_currencies: Type.Array(Extend(StoreCurrencyView, { currency: Type.Union([CurrencyView, Type.Null()]) })),
});
const Params = Type.Object({ id: Id() }, { additionalProperties: false });
const ListStores = ListQueryOf({ id: Id(), name: Filter("title") }, { q: Type.Optional(Title()) });

/**
 * Admin store (Medusa's `GET /admin/stores`, `GET/POST /admin/stores/{id}`): the one store Kasse
 * runs, created on first read with the default sales channel and the default currency; each
 * supported currency carries its `currency`.
 */
export default async function stores(app: App): Promise<void> {
  const modules = app.modules;

  const ensureStore = () =>
    modules.store.getOrCreate(async () => {
      const [channel, currency] = await Promise.all([
        modules.salesChannel.getOrCreateDefault(),
        modules.currency.getDefault(),
      ]);
      return {
        name: DEFAULT_STORE_NAME,
        default_sales_channel_id: channel.id,
        currencies: currency ? [{ currency_code: currency.code, is_default: true }] : [],
      };
    });

  /** Adds each supported currency's `currency` (one query for the page). */
  async function withCurrencyDetails(items: Store[]) {
    const codes = [...new Set(items.flatMap((s) => s.supported_currencies.map((c) => c.currency_code)))];
    const details =
      codes.length > 0 ? (await modules.currency.list({ code: codes }, { limit: codes.length, offset: 0 })).items : [];
    const byCode = new Map(details.map((c) => [c.code, c]));
    return items.map((s) => ({
      ...s,
      supported_currencies: s.supported_currencies.map((c) => ({
        ...c,
        currency: byCode.get(c.currency_code) ?? null,
      })),
    }));
  }

  app.get(
    "/stores",
    { schema: { querystring: ListStores, response: ListAnswer("stores", AdminStoreView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      await ensureStore();
      const { items, count } = await modules.store.list(filters, { limit, offset, order });
      return listResponse("stores", project(await withCurrencyDetails(items), parseFields(fields)), count, {
        limit,
        offset,
      });
    },
  );

  app.get(
    "/stores/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: Answer("store", AdminStoreView) } },
    async (request) => {
      await ensureStore();
      const [store] = await withCurrencyDetails([await modules.store.retrieve(request.params.id)]);
      return { store: project(store!, parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/stores/:id",
    {
      schema: {
        params: Params,
        querystring: RetrieveQuery,
        body: StoreUpdate,
        response: Answer("store", AdminStoreView),
      },
    },
    async (request) => {
      const { id } = request.params;
      const update = request.body;
      // A bad `fields` is refused before anything is written.
      const selection = parseFields(request.query.fields);
      await modules.store.retrieve(id);
      const codes = (update.supported_currencies ?? []).map((c) => c.currency_code);
      const wanted = (value: string | null | undefined) => (typeof value === "string" ? [value] : []);
      const [currencies, channels, locations, regions] = await Promise.all([
        modules.currency.existing(codes),
        modules.salesChannel.existing(wanted(update.default_sales_channel_id)),
        modules.stockLocation.existing(wanted(update.default_location_id)),
        Promise.all(
          wanted(update.default_region_id).map((r) =>
            modules.region.retrieve(r).then(
              (x) => x.id,
              () => null,
            ),
          ),
        ),
      ]);
      await app.infra.engine.execute(updateStoreWorkflow, {
        id,
        update,
        references: {
          currencies: [...currencies],
          sales_channels: [...channels],
          locations: [...locations],
          regions: regions.filter((r): r is string => r !== null),
        },
      });
      const [store] = await withCurrencyDetails([await modules.store.retrieve(id)]);
      return { store: project(store!, selection) };
    },
  );
}
