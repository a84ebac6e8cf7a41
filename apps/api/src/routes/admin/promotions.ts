import { Type } from "@sinclair/typebox";
import { Code, Id, MoneyWhen, Title } from "@kasse/db";
import {
  MONEY_RULE_ATTRIBUTES,
  NUMERIC_ATTRIBUTES,
  ruleAttribute,
  PROMOTION_STATUSES,
  PromotionCreate,
  PromotionUpdate,
  RuleBatch,
  type RuleKind,
  PromotionResponse,
  RuleBatchResponse,
} from "@kasse/modules/promotion";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListPromotions = ListQueryOf(
  { id: Id(), code: Code(), campaign_id: Id(), status: Type.Union(PROMOTION_STATUSES.map((s) => Type.Literal(s))) },
  { q: Type.Optional(Title()), is_automatic: Type.Optional(Type.Boolean()) },
);

/** Medusa's operator names, as its dashboard shows them. */
const OPERATOR_LABELS: Record<string, string> = {
  eq: "Equal",
  ne: "Not In",
  in: "In",
  gt: "Greater than",
  gte: "Greater than or equal",
  lt: "Less than",
  lte: "Less than or equal",
};
/** What each rule attribute (canonical or Medusa's alias) is called in a form. */
const ATTRIBUTE_LABELS: Record<string, string> = {
  customer_group_id: "Customer Group",
  region_id: "Region",
  currency_code: "Currency Code",
  product_id: "Product",
  product_category_id: "Product Category",
  product_collection_id: "Product Collection",
  product_tag_id: "Product Tag",
  shipping_option_id: "Shipping Option",
  subtotal: "Subtotal",
  item_total: "Item Total",
  quantity: "Quantity",
};
const RuleDisplay = Type.Object({
  id: Type.String(),
  attribute: Type.String(),
  operator: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  attribute_label: Type.String(),
  operator_label: Type.String(),
  field_type: Type.Union([Type.Literal("number"), Type.Literal("multiselect")]),
  // Amounts on cart-total attributes are money (the dialect converts the value and its label).
  values: MoneyWhen(
    "attribute",
    MONEY_RULE_ATTRIBUTES,
    Type.Array(Type.Object({ id: Type.String(), value: Type.String(), label: Type.String() })),
  ),
});
const RulesAnswer = {
  200: Type.Object(
    { rules: Type.Array(RuleDisplay) },
    { description: "The promotion's rules of this kind, with the labels a form shows" },
  ),
};
const RulesQuery = Type.Object(
  {
    fields: Type.Optional(Type.String({ maxLength: 4096 })),
    promotion_type: Type.Optional(Type.Union([Type.Literal("standard"), Type.Literal("buyget")])),
    application_method_type: Type.Optional(Type.Union([Type.Literal("fixed"), Type.Literal("percentage")])),
    application_method_target_type: Type.Optional(
      Type.Union([Type.Literal("items"), Type.Literal("shipping_methods"), Type.Literal("order")]),
    ),
  },
  { additionalProperties: false },
);

const batches: Array<[path: string, kind: RuleKind]> = [
  ["rules", "promotion"],
  ["target-rules", "target"],
  ["buy-rules", "buy"],
];

/** Admin promotions: CRUD and Medusa's rule batches (docs/CONTRACT.md "Admin: promotions and campaigns"). */
export default async function promotions(app: App): Promise<void> {
  const service = app.modules.promotion;
  // Medusa's dialect: a partial update's `value` and a batch's rule values are read with the stored application method's type and currency.
  const stored = async (request: FastifyRequest) => {
    const method = (await service.retrieve((request.params as { id: string }).id)).application_method;
    return method ? { type: method.type, currency_code: method.currency_code } : undefined;
  };
  const updateContext = {
    medusa: { context: async (request: FastifyRequest) => ({ application_method: await stored(request) }) },
  };
  const rulesContext = {
    medusa: { context: async (request: FastifyRequest) => ({ currency_code: (await stored(request))?.currency_code }) },
  };

  crudRoutes(app, {
    path: "/promotions",
    one: "promotion",
    many: "promotions",
    view: PromotionResponse,
    list: { query: ListPromotions, run: (filters, page) => service.list(filters, page) },
    retrieve: (id) => service.retrieve(id),
    create: { body: PromotionCreate, run: (body) => service.create(body) },
    update: { body: PromotionUpdate, config: updateContext, run: (id, body) => service.update(id, body) },
    delete: (id) => service.delete(id),
  });

  // Medusa's `GET /admin/promotions/{id}/{rules,target-rules,buy-rules}`: one kind of rule, each
  // with the labels its dashboard shows (values are labelled by themselves: ids, codes, amounts).
  for (const [path, kind] of batches) {
    app.get(
      `/promotions/:id/${path}`,
      { schema: { params: Params, querystring: RulesQuery, response: RulesAnswer } },
      async (request) => {
        const promotion = await service.retrieve(request.params.id);
        const rules =
          kind === "promotion"
            ? promotion.rules
            : kind === "target"
              ? (promotion.application_method?.target_rules ?? [])
              : (promotion.application_method?.buy_rules ?? []);
        return {
          rules: rules.map((rule) => {
            const canonical = ruleAttribute(rule.attribute) ?? rule.attribute;
            return {
              id: rule.id,
              attribute: rule.attribute,
              operator: rule.operator,
              description: rule.description ?? null,
              attribute_label: ATTRIBUTE_LABELS[canonical] ?? rule.attribute,
              operator_label: OPERATOR_LABELS[rule.operator] ?? rule.operator,
              field_type: NUMERIC_ATTRIBUTES.has(canonical as never) ? ("number" as const) : ("multiselect" as const),
              values: rule.values.map((v) => ({ id: v.id, value: v.value, label: v.value })),
            };
          }),
        };
      },
    );
  }

  for (const [path, kind] of batches) {
    app.post(
      `/promotions/:id/${path}/batch`,
      { config: rulesContext, schema: { params: Params, body: RuleBatch, response: { 200: RuleBatchResponse } } },
      async (request) => {
        return service.batchRules(request.params.id, kind, request.body);
      },
    );
  }
}
