import type { Locator } from "playwright-core";
import type { Runner, StepContext } from "../runner";
import { cheapest, choose, productByHandle, products, region, type KasseProduct } from "../shop";

/** Checks every product card in `scope` against Kasse's price for that product; returns the titles in screen order. */
async function expectCards(s: StepContext, scope: Locator, catalog: KasseProduct[]): Promise<string[]> {
  const cards = scope.getByTestId("product-wrapper");
  const titles: string[] = [];
  for (const card of await cards.all()) {
    const title = (await card.getByTestId("product-title").innerText()).trim();
    titles.push(title);
    const product = catalog.find((p) => p.title === title);
    if (!product) {
      s.soft(`a product card shows "${title}", which Kasse does not list`);
      continue;
    }
    const price = product.variants[0]?.calculated_price;
    if (price)
      await s.expectAmount(`card price of ${title}`, card.getByTestId("price"), cheapest(product), price.currency_code);
  }
  return titles;
}

/** Browse: home, store (sorted, paged, filtered by option), category, collection and product pages, choosing options. */
export async function browse(runner: Runner): Promise<void> {
  await runner.journey("browse", async (j) => {
    let catalog: KasseProduct[] = [];
    let regionId = "";
    const list = (s: StepContext) => s.page.getByTestId("products-list");

    await j.step("home page", async (s) => {
      regionId = (await region(s.kasse)).id;
      catalog = await products(s.kasse, regionId);
      await s.visit("/", s.page.getByTestId("nav-store-link"));
      if (!/\/us\/?$/.test(new URL(s.page.url()).pathname)) s.soft(`/ led to ${s.page.url()}, not the /us home page`);
      // One rail per collection, each listing that collection's products.
      await s.page.getByTestId("product-wrapper").first().waitFor();
      await expectCards(s, s.page.locator("body"), catalog);
    });

    await j.step(
      "store page",
      async (s) => {
        await s.visit("/us/store", list(s));
        const titles = await expectCards(s, list(s), catalog);
        if (titles.length !== Math.min(12, catalog.length))
          s.soft(
            `the store's first page shows ${titles.length} products, expected ${Math.min(12, catalog.length)} of Kasse's ${catalog.length}`,
          );
      },
      { fresh: true },
    );

    await j.step("store sorted by price", async (s) => {
      await s.navigate(s.page.getByTestId("radio-label").filter({ hasText: "Price: Low -> High" }), /sortBy=price_asc/);
      await s.settle(list(s));
      const shown = await expectCards(s, list(s), catalog);
      const expected = [...catalog]
        .sort((a, b) => cheapest(a) - cheapest(b))
        .slice(0, shown.length)
        .map(cheapest);
      const got = shown.map((t) => catalog.find((p) => p.title === t)).map((p) => (p ? cheapest(p) : NaN));
      if (JSON.stringify(got) !== JSON.stringify(expected))
        s.soft(
          `sorted by price the store shows prices ${got.join(", ")}, Kasse's cheapest first is ${expected.join(", ")}`,
        );
    });

    await j.step("store page 2", async (s) => {
      const firstPage = await list(s).getByTestId("product-title").allInnerTexts();
      await s.navigate(
        s.page.getByTestId("product-pagination").getByRole("button", { name: "2", exact: true }),
        /page=2/,
      );
      await s.settle(list(s));
      const secondPage = await expectCards(s, list(s), catalog);
      const all = new Set([...firstPage.map((t) => t.trim()), ...secondPage]);
      if (all.size !== catalog.length)
        s.soft(`pages 1 and 2 show ${all.size} distinct products, Kasse lists ${catalog.length}`);
    });

    await j.step(
      "store filtered by option",
      async (s) => {
        // The option filter is fetched by the browser (GET /store/product-options) after the page renders.
        await s.visit("/us/store", list(s));
        const answer = await s.recorder.waitForExchange(
          (e) => e.method === "GET" && runner.localPath(e) === "/store/product-options",
          s.config.actionTimeoutMs,
        );
        if (answer.status >= 400)
          return s.soft(`the store page shows no option filter: GET ${answer.url} answered ${answer.status}`);
        const shared = await s.kasse.store<{
          product_options: Array<{ values: Array<{ id: string; value: string }> }>;
        }>("GET", "/store/product-options?is_exclusive=false&fields=*values");
        const sharedM = shared.product_options.flatMap((o) => o.values).find((v) => v.value === "M");
        if (sharedM) {
          await s.navigate(s.page.getByRole("button", { name: "M", exact: true }).first(), /optionValueIds=/);
        } else {
          // The picker lists Medusa's shared options (is_exclusive false); every Kasse option is its
          // product's own, so there is none to click. The filter it would write is driven through the
          // page's URL instead, with every product's value M (what one shared "Size: M" stands for).
          const mIds = catalog.flatMap((p) =>
            p.variants.flatMap((v) => v.options.filter((o) => o.value === "M").map((o) => o.id)),
          );
          await s.visit(`/us/store?optionValueIds=${[...new Set(mIds)].join(",")}`, list(s));
          const filtered = s.recorder.exchanges.find(
            (e) => e.method === "GET" && runner.localPath(e) === "/store/products" && e.url.includes("option_value_id"),
          );
          if (!filtered) s.soft("the store page sent no option_value_id filter to Kasse");
        }
        await s.settle(list(s));
        const withM = catalog.filter((p) => p.variants.some((v) => v.options.some((o) => o.value === "M")));
        const titles = await expectCards(s, list(s), catalog);
        const wrong = titles.filter((t) => !withM.some((p) => p.title === t));
        if (wrong.length) s.soft(`filtered by size M the store shows ${wrong.join(", ")}, which have no M`);
        if (titles.length !== Math.min(12, withM.length))
          s.soft(`filtered by size M the store shows ${titles.length} products, Kasse has ${withM.length} with an M`);
      },
      { fresh: true },
    );

    await j.step(
      "category page",
      async (s) => {
        await s.visit("/us/store", list(s));
        await s.navigate(
          s.page.getByTestId("footer-categories").getByRole("link", { name: "Shirts", exact: true }),
          /\/us\/categories\/shirts/,
        );
        await s.settle(s.page.getByTestId("category-page-title"));
        const { product_categories } = await s.kasse.store<{ product_categories: Array<{ id: string }> }>(
          "GET",
          "/store/product-categories?handle=shirts",
        );
        const inCategory = await products(s.kasse, regionId, `&category_id[]=${product_categories[0]!.id}`);
        await list(s).waitFor();
        const titles = await expectCards(s, list(s), catalog);
        if (
          titles.sort().join() !==
          inCategory
            .map((p) => p.title)
            .sort()
            .join()
        )
          s.soft(
            `the Shirts page shows ${titles.join(", ")}; Kasse's category has ${inCategory.map((p) => p.title).join(", ")}`,
          );
      },
      { fresh: true },
    );

    await j.step(
      "collection page",
      async (s) => {
        await s.visit("/us/store", list(s));
        await s.navigate(
          s.page.getByRole("link", { name: "Essentials", exact: true }).first(),
          /\/us\/collections\/essentials/,
        );
        await s.settle(list(s));
        const { collections } = await s.kasse.store<{ collections: Array<{ id: string }> }>(
          "GET",
          "/store/collections?handle=essentials",
        );
        const inCollection = await products(s.kasse, regionId, `&collection_id[]=${collections[0]!.id}`);
        const titles = await expectCards(s, list(s), catalog);
        const expected = Math.min(12, inCollection.length);
        if (titles.length !== expected || titles.some((t) => !inCollection.some((p) => p.title === t)))
          s.soft(
            `the Essentials page shows ${titles.join(", ")}; Kasse's collection has ${inCollection.map((p) => p.title).join(", ")}`,
          );
      },
      { fresh: true },
    );

    await j.step(
      "product page",
      async (s) => {
        await s.visit("/us/store", list(s));
        await s.navigate(
          list(s).getByTestId("product-wrapper").filter({ hasText: "Linen Shirt" }).first(),
          /\/us\/products\/linen-shirt/,
        );
        await s.settle(s.page.getByTestId("product-container").or(s.page.getByTestId("add-product-button")).first());
        const product = await productByHandle(s.kasse, regionId, "linen-shirt");
        // The demo product's picture is Kasse's own file, shown (loaded) by the gallery.
        const thumbnail = (product as { thumbnail?: string | null }).thumbnail;
        if (!thumbnail) s.soft("Kasse's Linen Shirt has no thumbnail");
        else {
          const image = s.page.locator(`img[src="${thumbnail}"]`).first();
          await image.waitFor();
          // Evaluated in the page (no DOM types here): waits for the picture to load or fail, then reads its width.
          const width = await image.evaluate(
            (img: {
              complete: boolean;
              naturalWidth: number;
              addEventListener(event: string, listener: () => void, options: { once: boolean }): void;
            }) =>
              img.complete
                ? img.naturalWidth
                : new Promise<number>((resolve) =>
                    ["load", "error"].forEach((event) =>
                      img.addEventListener(event, () => resolve(img.naturalWidth), { once: true }),
                    ),
                  ),
          );
          if (!(width > 0)) s.soft(`the product picture ${thumbnail} did not load`);
        }
        await s.expectAmount(
          "product page price (cheapest variant)",
          s.page.getByTestId("product-price").first(),
          cheapest(product),
          product.variants[0]!.calculated_price!.currency_code,
        );
      },
      { fresh: true },
    );

    await j.step("choose options", async (s) => {
      const product = await productByHandle(s.kasse, regionId, "linen-shirt");
      for (const value of ["M", "XL"]) {
        await choose(s, product, value);
        const variant = product.variants.find((v) => v.options.some((o) => o.value === value))!;
        await s.expectAmount(
          `price of ${value}`,
          s.page.getByTestId("product-price").first(),
          variant.calculated_price!.calculated_amount,
          variant.calculated_price!.currency_code,
        );
        const add = s.page.getByTestId("add-product-button");
        if (!(await add.isEnabled()) || (await add.innerText()).trim() !== "Add to cart")
          s.soft(
            `with ${value} chosen the add button says "${await add.innerText()}" (enabled: ${await add.isEnabled()})`,
          );
      }
    });
  });
}
