import { transaction } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import type { ProductCreate } from "@kasse/modules/product";
import { createProductsIn } from "@kasse/flows";

/** What the seed created: printed by `kasse seed` so a new user can point a storefront at it. */
export interface DemoStore {
  sales_channel_id: string;
  publishable_api_key: string;
  region_ids: { us: string; eu: string };
  stock_location_id: string;
  product_count: number;
}

/** Choices for {@link seedDemoStore}. */
export interface SeedOptions {
  /** The publishable key's token (`pk_…`) instead of a generated one, so a storefront built against an earlier seed keeps working. */
  publishableKey?: string;
  /**
   * The products' pictures: the PNG of a product by its handle. Each is stored through the file
   * module (the configured provider: the local disk or the bucket), so the products show them
   * wherever the store's files are served, and they count against the upload quota like any
   * upload. Without it the products have none.
   */
  pictures?: (handle: string) => Promise<Buffer>;
}

interface DemoProduct {
  title: string;
  description: string;
  collection: "Essentials" | "Seasonal";
  category: "Shirts" | "Sweaters" | "Pants" | "Accessories";
  option: { title: string; values: string[] };
  /** Price in USD cents; the EUR price is set a little lower, VAT included (see the preference). */
  usd: number;
  tags: string[];
}

const SIZES = { title: "Size", values: ["S", "M", "L", "XL"] };
const ONE = { title: "Size", values: ["One size"] };

// The catalog a new user sees: 20 products over 4 categories and 2 collections.
const CATALOG: DemoProduct[] = [
  {
    title: "Linen Shirt",
    description: "A breathable shirt in washed linen.",
    collection: "Seasonal",
    category: "Shirts",
    option: SIZES,
    usd: 5900,
    tags: ["linen", "summer"],
  },
  {
    title: "Oxford Shirt",
    description: "A button-down in heavy oxford cotton.",
    collection: "Essentials",
    category: "Shirts",
    option: SIZES,
    usd: 6500,
    tags: ["cotton"],
  },
  {
    title: "Crew T-Shirt",
    description: "The everyday tee in organic jersey.",
    collection: "Essentials",
    category: "Shirts",
    option: SIZES,
    usd: 2500,
    tags: ["cotton", "organic"],
  },
  {
    title: "Long Sleeve Tee",
    description: "Jersey tee with long sleeves.",
    collection: "Essentials",
    category: "Shirts",
    option: SIZES,
    usd: 3200,
    tags: ["cotton"],
  },
  {
    title: "Flannel Shirt",
    description: "Brushed cotton flannel for cold days.",
    collection: "Seasonal",
    category: "Shirts",
    option: SIZES,
    usd: 6900,
    tags: ["cotton", "winter"],
  },
  {
    title: "Merino Sweater",
    description: "Fine-gauge merino wool crew neck.",
    collection: "Essentials",
    category: "Sweaters",
    option: SIZES,
    usd: 9900,
    tags: ["wool"],
  },
  {
    title: "Cable Knit Sweater",
    description: "Chunky cable knit in lambswool.",
    collection: "Seasonal",
    category: "Sweaters",
    option: SIZES,
    usd: 12900,
    tags: ["wool", "winter"],
  },
  {
    title: "Hoodie",
    description: "Loopback cotton hoodie.",
    collection: "Essentials",
    category: "Sweaters",
    option: SIZES,
    usd: 7500,
    tags: ["cotton"],
  },
  {
    title: "Cardigan",
    description: "A soft cardigan with horn buttons.",
    collection: "Seasonal",
    category: "Sweaters",
    option: SIZES,
    usd: 10900,
    tags: ["wool"],
  },
  {
    title: "Sweatshirt",
    description: "Classic crew sweatshirt.",
    collection: "Essentials",
    category: "Sweaters",
    option: SIZES,
    usd: 5900,
    tags: ["cotton"],
  },
  {
    title: "Chinos",
    description: "Slim chinos in stretch twill.",
    collection: "Essentials",
    category: "Pants",
    option: SIZES,
    usd: 7900,
    tags: ["cotton"],
  },
  {
    title: "Selvedge Jeans",
    description: "Raw selvedge denim, straight fit.",
    collection: "Essentials",
    category: "Pants",
    option: SIZES,
    usd: 14900,
    tags: ["denim"],
  },
  {
    title: "Linen Trousers",
    description: "Relaxed trousers in linen.",
    collection: "Seasonal",
    category: "Pants",
    option: SIZES,
    usd: 8900,
    tags: ["linen", "summer"],
  },
  {
    title: "Corduroy Pants",
    description: "Wide-wale corduroy, relaxed fit.",
    collection: "Seasonal",
    category: "Pants",
    option: SIZES,
    usd: 9500,
    tags: ["cotton", "winter"],
  },
  {
    title: "Shorts",
    description: "Cotton shorts with a drawstring.",
    collection: "Seasonal",
    category: "Pants",
    option: SIZES,
    usd: 4500,
    tags: ["cotton", "summer"],
  },
  {
    title: "Wool Beanie",
    description: "Rib-knit beanie in merino.",
    collection: "Seasonal",
    category: "Accessories",
    option: ONE,
    usd: 2900,
    tags: ["wool", "winter"],
  },
  {
    title: "Canvas Tote",
    description: "Heavy canvas tote bag.",
    collection: "Essentials",
    category: "Accessories",
    option: ONE,
    usd: 3500,
    tags: ["cotton"],
  },
  {
    title: "Leather Belt",
    description: "Vegetable-tanned leather belt.",
    collection: "Essentials",
    category: "Accessories",
    option: { title: "Size", values: ["85", "95", "105"] },
    usd: 5500,
    tags: ["leather"],
  },
  {
    title: "Wool Scarf",
    description: "A long scarf in brushed wool.",
    collection: "Seasonal",
    category: "Accessories",
    option: ONE,
    usd: 4900,
    tags: ["wool", "winter"],
  },
  {
    title: "Sunglasses",
    description: "Acetate frames with polarized lenses.",
    collection: "Seasonal",
    category: "Accessories",
    option: ONE,
    usd: 8900,
    tags: ["summer"],
  },
];

const handleOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * Creates the demo store a new user sees, in one transaction: the store (selling in usd, the
 * default, and eur), the default sales channel with a
 * publishable key, regions US (usd) and Europe (eur: de, fr) with tax regions, a stock location
 * with a flat-rate shipping option per region, categories, collections, tags and 20 published
 * products with variants, prices and stock. Does nothing (returns null) when the store already
 * has regions or products, so `kasse seed` and the first embedded start can both call it.
 * @example
 * const store = await seedDemoStore(createModules());
 * if (store) console.log(`publishable key: ${store.publishable_api_key}`);
 */
export async function seedDemoStore(m: Modules, options: SeedOptions = {}): Promise<DemoStore | null> {
  return transaction(async () => {
    const regions = m.region;
    const products = m.product;
    // Every embedded restart asks: two one-row reads, not two counted list pages (a tenth of a restart's CPU).
    const [hasRegions, hasProducts] = await Promise.all([regions.any(), products.any()]);
    if (hasRegions || hasProducts) return null;

    const channel = await m.salesChannel.getOrCreateDefault();
    const apiKeys = m.apiKey;
    const key = await apiKeys.create({ title: "Webshop", type: "publishable" }, "", {
      token: options.publishableKey,
    });
    await apiKeys.updateSalesChannels(key.id, { add: [channel.id] });

    await m.currency.update("usd", { is_default: true });
    const us = await regions.create({ name: "United States", currency_code: "usd", countries: ["us"] });
    const eu = await regions.create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
    // European shelf prices include VAT.
    await m.pricePreference.create({ attribute: "currency_code", value: "eur", is_tax_inclusive: true });
    const taxes = m.tax;
    await taxes.create(
      { country_code: "us", default_tax_rate: { rate: 0, code: "US-NONE", name: "No sales tax" } },
      "",
    );
    await taxes.create(
      { country_code: "de", default_tax_rate: { rate: 19, code: "DE-VAT", name: "Umsatzsteuer" } },
      "",
    );
    await taxes.create({ country_code: "fr", default_tax_rate: { rate: 20, code: "FR-TVA", name: "TVA" } }, "");

    const locations = m.stockLocation;
    const location = await locations.create({ name: "Main Warehouse" });
    await locations.updateSalesChannels(location.id, { add: [channel.id] });
    await m.store.getOrCreate({
      name: "Kasse Demo Store",
      default_sales_channel_id: channel.id,
      default_region_id: us.id,
      default_location_id: location.id,
      currencies: [
        { currency_code: "usd", is_default: true },
        { currency_code: "eur", is_default: false },
      ],
    });
    const fulfillment = m.fulfillment;
    const profile = await fulfillment.getOrCreateDefaultProfile();
    // Standard shipping in each region, in its currency.
    for (const [region, currency_code, amount] of [
      [us, "usd", 800],
      [eu, "eur", 700],
    ] as const)
      await fulfillment.createOption({
        name: "Standard Shipping",
        prices: [{ currency_code, amount }],
        region_id: region.id,
        stock_location_id: location.id,
        shipping_profile_id: profile.id,
      });

    const collectionIds = new Map<string, string>();
    for (const title of ["Essentials", "Seasonal"])
      collectionIds.set(title, (await products.collections.create({ title, handle: handleOf(title) })).id);
    const categoryIds = new Map<string, string>();
    for (const name of ["Shirts", "Sweaters", "Pants", "Accessories"])
      categoryIds.set(name, (await products.categories.create({ name, handle: handleOf(name), is_active: true })).id);
    const tagIds = new Map<string, string>();
    for (const value of new Set(CATALOG.flatMap((p) => p.tags)))
      tagIds.set(value, (await products.tags.create({ value })).id);

    // One upload per picture: a store's upload limit may be fewer files than the catalog has.
    const pictures = new Map<string, string>();
    if (options.pictures)
      for (const { title } of CATALOG) {
        const handle = handleOf(title);
        const [stored] = await m.file.upload([{ filename: `${handle}.png`, content: await options.pictures(handle) }]);
        pictures.set(handle, m.file.referenceOf(stored!.id));
      }
    const inputs: ProductCreate[] = CATALOG.map((p) => ({
      title: p.title,
      handle: handleOf(p.title),
      description: p.description,
      ...(pictures.has(handleOf(p.title))
        ? { thumbnail: pictures.get(handleOf(p.title))!, images: [{ url: pictures.get(handleOf(p.title))! }] }
        : {}),
      status: "published",
      collection_id: collectionIds.get(p.collection),
      categories: [{ id: categoryIds.get(p.category)! }],
      tags: p.tags.map((t) => ({ id: tagIds.get(t)! })),
      sales_channels: [{ id: channel.id }],
      options: [p.option],
      variants: p.option.values.map((value) => ({
        title: value,
        sku: `${handleOf(p.title)}-${handleOf(value)}`.toUpperCase(),
        options: { [p.option.title]: value },
        prices: [
          { currency_code: "usd", amount: p.usd },
          { currency_code: "eur", amount: Math.round((p.usd * 0.9) / 100) * 100 },
        ],
      })),
    }));
    const productIds = await createProductsIn(m, inputs);

    // Stock every variant at the warehouse; quantities vary so some sizes run low.
    const inventory = m.inventory;
    const { items: variants } = await products.listVariants({ product_id: productIds }, { limit: 1000, offset: 0 });
    const links = await inventory.listVariantInventoryItems(variants.map((v) => v.id));
    let n = 0;
    for (const variant of variants) {
      for (const link of links.get(variant.id) ?? []) {
        await inventory.createLevels(link.inventory_item_id, [
          { location_id: location.id, stocked_quantity: 5 + ((n++ * 7) % 40) },
        ]);
      }
    }
    return {
      sales_channel_id: channel.id,
      publishable_api_key: key.token,
      region_ids: { us: us.id, eu: eu.id },
      stock_location_id: location.id,
      product_count: productIds.length,
    };
  });
}
