import { and, asc, count, eq, isNull, or } from "drizzle-orm";
import {
  errors,
  generateId,
  isUniqueViolation,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  rowsByParent,
  textSearch,
} from "@kasse/db";
import { priceFor } from "./price-for";
import {
  shippingOption,
  shippingOptionPrice,
  shippingProfile,
  type ShippingOptionCreate,
  type ShippingOptionFilters,
  type ShippingOptionPriceInput,
  type ShippingOptionPriceRow,
  type ShippingOptionRow,
  type ShippingOptionUpdate,
  type ShippingProfileCreate,
  type ShippingProfileRow,
} from "./schema";

/** A shipping option as the API shows it: the row plus its prices. */
export type ShippingOption = ShippingOptionRow & { prices: Array<Omit<ShippingOptionPriceRow, "rank">> };

const liveProfile = isNull(shippingProfile.deleted_at);
const liveOption = isNull(shippingOption.deleted_at);

/**
 * Shipping profiles and shipping options, and which options a cart can use.
 * @example
 * const fulfillment = createFulfillmentService(db);
 * const option = await fulfillment.createOption({ name: "Standard", prices: [{ currency_code: "usd", amount: 800 }] });
 */
export function createFulfillmentService(db: Db) {
  const profiles = liveRecords(db, shippingProfile, "Shipping profile", { name: shippingProfile.name });
  const optionRecords = liveRecords(db, shippingOption, "Shipping option", { name: shippingOption.name });
  const service = {
    async createProfile(input: ShippingProfileCreate): Promise<ShippingProfileRow> {
      try {
        const [row] = await db
          .insert(shippingProfile)
          .values({ id: generateId("sp"), name: input.name, type: input.type, metadata: input.metadata ?? null })
          .returning();
        return row!;
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict(`Shipping profile with name: ${input.name} already exists`);
        throw error;
      }
    },

    retrieveProfile: (id: string): Promise<ShippingProfileRow> => profiles.retrieve(id),

    listProfiles(filters: { id?: string[]; q?: string; type?: string[] }, page: ListPaging) {
      const conditions = anyOf(filters, { id: shippingProfile.id, type: shippingProfile.type });
      conditions.push(...textSearch(filters.q, [shippingProfile.name]));
      return profiles.list(conditions, page);
    },

    /** Soft delete; refused while live shipping options use the profile. */
    async deleteProfile(id: string): Promise<void> {
      await profiles.retrieve(id);
      const [used] = await db
        .select({ count: count() })
        .from(shippingOption)
        .where(and(eq(shippingOption.shipping_profile_id, id), liveOption));
      if ((used?.count ?? 0) > 0)
        throw errors.notAllowed(`Shipping profile ${id} is used by shipping options; delete them first`);
      await profiles.softDelete(id);
    },

    /**
     * The profile every product ships under: Kasse assigns no profile per product (any option may
     * ship any product), so a product's `shipping_profile` is the store's default one. Null before
     * the first option created it. Reads only.
     */
    async defaultProfile(): Promise<ShippingProfileRow | null> {
      const [existing] = await db
        .select()
        .from(shippingProfile)
        .where(and(eq(shippingProfile.type, "default"), liveProfile))
        .orderBy(shippingProfile.created_at)
        .limit(1);
      return existing ?? null;
    },

    /** The store's default profile, created on first use. */
    async getOrCreateDefaultProfile(): Promise<ShippingProfileRow> {
      const existing = await service.defaultProfile();
      if (existing) return existing;
      const [row] = await db
        .insert(shippingProfile)
        .values({ id: generateId("sp"), name: "Default Shipping Profile", type: "default" })
        .onConflictDoNothing()
        .returning();
      return row ?? (await service.getOrCreateDefaultProfile());
    },

    /** Creates an option with its prices, all or nothing. */
    async createOption(input: ShippingOptionCreate): Promise<ShippingOption> {
      return transaction(db, async (tx) => {
        const profileId =
          input.shipping_profile_id ?? (await createFulfillmentService(tx).getOrCreateDefaultProfile()).id;
        if (input.shipping_profile_id) await existingProfile(tx, profileId);
        const id = generateId("so");
        await tx.insert(shippingOption).values({
          id,
          name: input.name,
          price_type: input.price_type ?? "flat",
          region_id: input.region_id ?? null,
          stock_location_id: input.stock_location_id ?? null,
          service_zone_id: input.service_zone_id ?? null,
          shipping_profile_id: profileId,
          provider_id: input.provider_id ?? "manual_manual",
          data: input.data ?? null,
          rules: input.rules ?? [],
          type: input.type ?? null,
          metadata: input.metadata ?? null,
        });
        await insertPrices(tx, id, input.prices);
        return createFulfillmentService(tx).retrieveOption(id);
      });
    },

    /** Updates an option; `prices` replaces its prices. All or nothing. */
    async updateOption(id: string, input: ShippingOptionUpdate): Promise<ShippingOption> {
      return transaction(db, async (tx) => {
        await createFulfillmentService(tx).retrieveOption(id);
        const { prices, ...fields } = input;
        if (fields.shipping_profile_id) await existingProfile(tx, fields.shipping_profile_id);
        if (Object.keys(fields).length > 0)
          await tx.update(shippingOption).set(fields).where(eq(shippingOption.id, id));
        if (prices) {
          await tx.delete(shippingOptionPrice).where(eq(shippingOptionPrice.shipping_option_id, id));
          await insertPrices(tx, id, prices);
        }
        return createFulfillmentService(tx).retrieveOption(id);
      });
    },

    retrieveOption: async (id: string): Promise<ShippingOption> =>
      (await attachPrices(db, [await optionRecords.retrieve(id)]))[0]!,

    async listOptions(
      filters: ShippingOptionFilters,
      page: ListPaging,
    ): Promise<{ items: ShippingOption[]; count: number }> {
      const conditions = anyOf(filters, {
        id: shippingOption.id,
        region_id: shippingOption.region_id,
        stock_location_id: shippingOption.stock_location_id,
        shipping_profile_id: shippingOption.shipping_profile_id,
      });
      conditions.push(...textSearch(filters.q, [shippingOption.name]));
      const { items, count } = await optionRecords.list(conditions, page);
      return { items: await attachPrices(db, items), count };
    },

    deleteOption: (id: string): Promise<void> => optionRecords.softDelete(id),

    /**
     * Options a cart in this region and currency can use, each with its `amount`: store-enabled,
     * not return options, in the region (or region-less) and priced there.
     */
    async optionsForContext(context: {
      region_id: string | null;
      currency_code: string;
    }): Promise<Array<ShippingOption & { amount: number }>> {
      const inRegion = context.region_id
        ? or(eq(shippingOption.region_id, context.region_id), isNull(shippingOption.region_id))
        : isNull(shippingOption.region_id);
      const rows = await db
        .select()
        .from(shippingOption)
        .where(and(liveOption, inRegion))
        .orderBy(shippingOption.created_at, shippingOption.id);
      const options = await attachPrices(
        db,
        rows.filter((row) => storeVisible(row.rules)),
      );
      const out: Array<ShippingOption & { amount: number }> = [];
      for (const option of options) {
        const amount = priceFor(option.prices, context);
        if (amount !== undefined) out.push({ ...option, amount });
      }
      return out;
    },
  };
  return service;
}

export type FulfillmentService = ReturnType<typeof createFulfillmentService>;

async function existingProfile(tx: Db, id: string): Promise<void> {
  if (!(await liveRecords(tx, shippingProfile, "Shipping profile").find(id)))
    throw errors.invalidData(`Shipping profile with id: ${id} was not found`);
}

async function insertPrices(tx: Db, optionId: string, prices: ShippingOptionPriceInput[]): Promise<void> {
  const seen = new Set<string>();
  const rows = prices.map((price, rank) => {
    const currency = "currency_code" in price ? price.currency_code.toLowerCase() : null;
    const region = "region_id" in price ? price.region_id : null;
    const key = currency ? `c:${currency}` : `r:${region}`;
    if (seen.has(key)) throw errors.invalidData(`Shipping option has two prices for ${currency ?? region}`);
    seen.add(key);
    return {
      id: generateId("sopr"),
      shipping_option_id: optionId,
      currency_code: currency,
      region_id: region,
      amount: price.amount,
      rank,
    };
  });
  await tx.insert(shippingOptionPrice).values(rows);
}

async function attachPrices(tx: Db, rows: ShippingOptionRow[]): Promise<ShippingOption[]> {
  const prices = await rowsByParent(tx, shippingOptionPrice, "shipping_option_id", rows, {
    order: [asc(shippingOptionPrice.rank)],
  });
  return rows.map((row) => ({ ...row, prices: prices.get(row.id)!.map(({ rank: _rank, ...price }) => price) }));
}

/** Medusa's store rules: `enabled_in_store` false hides an option, `is_return` true marks a return option. */
function storeVisible(rules: ShippingOptionRow["rules"]): boolean {
  for (const rule of rules) {
    const value = Array.isArray(rule.value) ? rule.value[0] : rule.value;
    if (rule.attribute === "enabled_in_store" && rule.operator === "eq" && value === "false") return false;
    if (rule.attribute === "is_return" && rule.operator === "eq" && value === "true") return false;
  }
  return true;
}
