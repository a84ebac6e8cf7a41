import { Type } from "@sinclair/typebox";
import {
  batchProductsWorkflow,
  createProductsWorkflow,
  deleteProductsWorkflow,
  productOptions,
  setProductVariantPrices,
  updateProductsWorkflow,
  writeProductVariantsWorkflow,
} from "@kasse/flows";
import { Code, errors, Id, Title } from "@kasse/core";
import {
  OptionCreate,
  OptionUpdate,
  PRODUCT_STATUSES,
  ProductBatchUpdate,
  ProductCreate,
  ProductUpdate,
  VariantCreate,
  VariantPriceInput,
  VariantUpdate,
  ProductOptionView,
  VariantImagesBatch,
} from "@kasse/modules/product";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import {
  ArrayQuery,
  Filter,
  ListQuery,
  listResponse,
  RetrieveQuery,
  Answer,
  DeleteResponse,
  Deleted,
  ListAnswer,
  ChildParams,
  IdParams,
  deleted,
  BatchAnswer,
} from "../../http/schemas";
import {
  adminProduct,
  adminProducts,
  relationsFor,
  variantExtras,
  AdminProductView,
  AdminVariantListView,
} from "./product-responses";

const VariantParams = ChildParams("variant_id");
const OptionParams = ChildParams("option_id");

const ListProducts = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    handle: Type.Optional(ArrayQuery(Filter("handle"))),
    status: Type.Optional(ArrayQuery(Type.Union(PRODUCT_STATUSES.map((s) => Type.Literal(s))))),
    sales_channel_id: Type.Optional(ArrayQuery(Id())),
    collection_id: Type.Optional(ArrayQuery(Id())),
    type_id: Type.Optional(ArrayQuery(Id())),
    // The contract names `tags`/`categories` (ids); Medusa clients also send `tag_id`/`category_id`.
    tags: Type.Optional(ArrayQuery(Id())),
    tag_id: Type.Optional(ArrayQuery(Id())),
    categories: Type.Optional(ArrayQuery(Id())),
    category_id: Type.Optional(ArrayQuery(Id())),
    include_descendants_tree: Type.Optional(Type.Boolean()),
    is_giftcard: Type.Optional(Type.Boolean()),
    // Products a price list prices (the dashboard's price list page).
    price_list_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

const ProductBatch = Type.Object(
  {
    create: Type.Optional(Type.Array(ProductCreate)),
    update: Type.Optional(Type.Array(ProductBatchUpdate)),
    delete: Type.Optional(Type.Array(Id({ minLength: 1 }))),
  },
  { additionalProperties: false },
);

const ListVariants = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    sku: Type.Optional(ArrayQuery(Code())),
  },
  { additionalProperties: false },
);
const VariantPrices = Type.Object({ prices: Type.Array(VariantPriceInput) }, { additionalProperties: false });

const One = Answer("product", AdminProductView);
// A variant or option removed: the product as it is now is its `parent`.
const DeletedChild = { 200: Type.Object({ ...DeleteResponse.properties, parent: AdminProductView }) };

/** Admin products: CRUD, batch, variants, options and variant prices (docs/CONTRACT.md "Admin: products"). */
export default async function products(app: App): Promise<void> {
  const one = async (id: string, fields?: string) => ({
    product: project(await adminProduct(app, id, parseFields(fields)), parseFields(fields)),
  });
  /** The options of product `id` (404 when it is unknown). */
  const optionsOf = async (id: string) =>
    (await app.modules.product.retrieve(id, { relations: ["options"], filters: { id: [id] } })).options ?? [];

  app.get(
    "/products",
    { schema: { querystring: ListProducts, response: ListAnswer("products", AdminProductView) } },
    async (request) => {
      const {
        limit,
        offset,
        order,
        fields,
        tags,
        tag_id,
        categories,
        category_id,
        include_descendants_tree,
        price_list_id,
        ...filters
      } = request.query;
      const selection = parseFields(fields);
      const variant_id = price_list_id?.length ? await app.modules.priceList.variantIds(price_list_id) : undefined;
      const { items, count } = await app.modules.product.list(
        {
          ...filters,
          variant_id,
          tag_id: [...(tags ?? []), ...(tag_id ?? [])].length ? [...(tags ?? []), ...(tag_id ?? [])] : undefined,
          category_id: [...(categories ?? []), ...(category_id ?? [])].length
            ? [...(categories ?? []), ...(category_id ?? [])]
            : undefined,
          include_category_descendants: include_descendants_tree,
        },
        { limit, offset, order },
        { relations: relationsFor(selection) },
      );
      return listResponse("products", project(await adminProducts(app, items, selection), selection), count, {
        limit,
        offset,
      });
    },
  );

  app.post("/products", { schema: { body: ProductCreate, response: One } }, async (request) => {
    const [id] = await app.infra.engine.execute(createProductsWorkflow, { products: [request.body] });
    return one(id!);
  });

  app.post(
    "/products/batch",
    { schema: { body: ProductBatch, response: BatchAnswer(AdminProductView) } },
    async (request) => {
      const result = await app.infra.engine.execute(batchProductsWorkflow, request.body);
      const selection = parseFields(undefined);
      const load = async (ids: string[]) =>
        ids.length
          ? adminProducts(
              app,
              (await app.modules.product.list({ id: ids }, { limit: ids.length, offset: 0 })).items,
              selection,
            )
          : [];
      return {
        created: await load(result.created),
        updated: await load(result.updated),
        deleted: { ids: result.deleted, object: "product", deleted: true },
      };
    },
  );

  app.get(
    "/products/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => one(request.params.id, request.query.fields),
  );

  app.post("/products/:id", { schema: { params: IdParams, body: ProductUpdate, response: One } }, async (request) => {
    await app.infra.engine.execute(updateProductsWorkflow, {
      products: [{ id: request.params.id, input: request.body }],
    });
    return one(request.params.id);
  });

  app.delete("/products/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await app.infra.engine.execute(deleteProductsWorkflow, { ids: [request.params.id] });
    return deleted(request.params.id, "product");
  });

  app.get(
    "/products/:id/variants",
    { schema: { params: IdParams, querystring: ListVariants, response: ListAnswer("variants", AdminVariantListView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      await app.modules.product.retrieve(request.params.id, { relations: [], filters: { id: [request.params.id] } });
      const { items, count } = await app.modules.product.listVariants(
        { ...filters, product_id: [request.params.id] },
        { limit, offset, order },
      );
      const selection = parseFields(fields);
      return listResponse("variants", project(await variantExtras(app, items, selection), selection), count, {
        limit,
        offset,
      });
    },
  );

  app.post(
    "/products/:id/variants",
    { schema: { params: IdParams, body: VariantCreate, response: One } },
    async (request) => {
      await app.infra.engine.execute(writeProductVariantsWorkflow, {
        product_id: request.params.id,
        create: [request.body],
      });
      return one(request.params.id);
    },
  );

  app.get(
    "/products/:id/variants/:variant_id",
    {
      schema: { params: VariantParams, querystring: RetrieveQuery, response: Answer("variant", AdminVariantListView) },
    },
    async (request) => {
      const variant = await app.modules.product.retrieveVariant(request.params.id, request.params.variant_id);
      const selection = parseFields(request.query.fields);
      const [shaped] = await variantExtras(app, [variant], selection);
      return { variant: project(shaped!, selection) };
    },
  );

  app.post(
    "/products/:id/variants/:variant_id",
    { schema: { params: VariantParams, body: VariantUpdate, response: One } },
    async (request) => {
      await app.infra.engine.execute(writeProductVariantsWorkflow, {
        product_id: request.params.id,
        update: [{ id: request.params.variant_id, input: request.body }],
      });
      return one(request.params.id);
    },
  );

  app.delete(
    "/products/:id/variants/:variant_id",
    { schema: { params: VariantParams, response: DeletedChild } },
    async (request) => {
      await app.infra.engine.execute(writeProductVariantsWorkflow, {
        product_id: request.params.id,
        delete: [request.params.variant_id],
      });
      return deleted(request.params.variant_id, "variant", { parent: (await one(request.params.id)).product });
    },
  );

  // Medusa's variant images: which of the product's images show this variant.
  app.post(
    "/products/:id/variants/:variant_id/images/batch",
    {
      schema: {
        params: VariantParams,
        body: VariantImagesBatch,
        response: { 200: Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()) }) },
      },
    },
    async (request) =>
      app.modules.product.batchVariantImages(request.params.id, request.params.variant_id, request.body),
  );

  app.post(
    "/products/:id/variants/:variant_id/prices",
    { schema: { params: VariantParams, body: VariantPrices, response: One } },
    async (request) => {
      await setProductVariantPrices(app.modules, request.params.id, request.params.variant_id, request.body.prices);
      return one(request.params.id);
    },
  );

  app.get(
    "/products/:id/options",
    {
      schema: {
        params: IdParams,
        querystring: RetrieveQuery,
        response: ListAnswer("product_options", ProductOptionView),
      },
    },
    async (request) => {
      const options = await optionsOf(request.params.id);
      return listResponse("product_options", project(options, parseFields(request.query.fields)), options.length, {
        limit: options.length,
        offset: 0,
      });
    },
  );

  app.post(
    "/products/:id/options",
    { schema: { params: IdParams, body: OptionCreate, response: One } },
    async (request) => {
      await productOptions.create(app.modules, request.params.id, request.body);
      return one(request.params.id);
    },
  );

  app.get(
    "/products/:id/options/:option_id",
    {
      schema: {
        params: OptionParams,
        querystring: RetrieveQuery,
        response: Answer("product_option", ProductOptionView),
      },
    },
    async (request) => {
      const option = (await optionsOf(request.params.id)).find((o) => o.id === request.params.option_id);
      if (!option) throw errors.notFound(`Product option with id: ${request.params.option_id} was not found`);
      return { product_option: project(option, parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/products/:id/options/:option_id",
    { schema: { params: OptionParams, body: OptionUpdate, response: One } },
    async (request) => {
      await productOptions.update(app.modules, request.params.id, request.params.option_id, request.body);
      return one(request.params.id);
    },
  );

  app.delete(
    "/products/:id/options/:option_id",
    { schema: { params: OptionParams, response: DeletedChild } },
    async (request) => {
      await productOptions.delete(app.modules, request.params.id, request.params.option_id);
      return deleted(request.params.option_id, "product_option", { parent: (await one(request.params.id)).product });
    },
  );
}
