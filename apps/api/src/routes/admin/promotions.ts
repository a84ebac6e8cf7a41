import { Type } from "@sinclair/typebox";
import { Code, Id, MoneyWhen, Title } from "@kasse/core";
import {
  ATTRIBUTE_LABELS,
  MONEY_RULE_ATTRIBUTES,
  NUMERIC_ATTRIBUTES,
  OPERATOR_LABELS,
  RULE_TYPES,
  RuleAttributeOption,
  ruleAttribute,
  ruleAttributeOptions,
  PROMOTION_STATUSES,
  PromotionCreate,
  PromotionUpdate,
  RuleBatch,
  type RuleKind,
  type RuleOptionsContext,
  type RuleType,
  type PromotionView,
  type RuleView,
  PromotionResponse,
  RuleBatchResponse,
} from "@kasse/modules/promotion";
import { ruleValueOptions } from "@kasse/flows";
import type { FastifyRequest } from "fastify";
import type { Modules } from "@kasse/modules";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { ListQuery, ListQueryOf, IdParams } from "../../http/schemas";

const ListPromotions = ListQueryOf(
  { id: Id(), code: Code(), campaign_id: Id(), status: Type.Union(PROMOTION_STATUSES.map((s) => Type.Literal(s))) },
  { q: Type.Optional(Title()), is_automatic: Type.Optional(Type.Boolean()) },
);

const RuleDisplay = Type.Object({
  // A disguised rule (a field of the application method shown as a rule) has no id.
  id: Type.Optional(Type.String()),
  attribute: Type.String(),
  operator: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  attribute_label: Type.String(),
  operator_label: Type.String(),
  field_type: Type.Union([Type.Literal("number"), Type.Literal("multiselect"), Type.Literal("select")]),
  required: Type.Optional(Type.Boolean()),
  disguised: Type.Optional(Type.Boolean()),
  // Amounts on cart-total attributes are money (the dialect converts the value and its label).
  values: MoneyWhen(
    "attribute",
    MONEY_RULE_ATTRIBUTES,
    Type.Array(Type.Object({ id: Type.Optional(Type.String()), value: Type.String(), label: Type.String() })),
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

const RuleTypeParams = Type.Object({ rule_type: Type.Union(RULE_TYPES.map((t) => Type.Literal(t))) });
const RuleOptionsQuery = Type.Omit(RulesQuery, ["fields"], { additionalProperties: false });
const RuleValueParams = Type.Object({ ...RuleTypeParams.properties, rule_attribute_id: Code() });
// `value[]`: the values already chosen, which the form asks to label (its combobox asks for the
// one it shows as `id`). The form also names the target type it writes; an attribute's records
// are the same whatever the target.
const RuleValueQuery = ListQueryOf(
  { value: Code(), id: Code() },
  {
    q: Type.Optional(Title()),
    application_method_target_type: RulesQuery.properties.application_method_target_type,
  },
  { limit: ListQuery.limit, offset: ListQuery.offset },
);
const AttributeOptionsAnswer = {
  200: Type.Object(
    { attributes: Type.Array(RuleAttributeOption) },
    { description: "The attributes a rule of this type may test, with their operators" },
  ),
};
const ValueOptionsAnswer = {
  200: Type.Object(
    { values: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })) },
    { description: "The records a rule on this attribute can name" },
  ),
};

const batches: Array<[path: RuleType, kind: RuleKind]> = [
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
  // A rule update that leaves `attribute` out is read with the stored rule's (by position in `update`).
  const rulesContext = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const promotion = await service.retrieve((request.params as { id: string }).id);
        const method = promotion.application_method;
        const attributes = new Map(
          [...promotion.rules, ...(method?.target_rules ?? []), ...(method?.buy_rules ?? [])].map((r) => [
            r.id,
            r.attribute,
          ]),
        );
        const updates = (request.body as { update?: unknown } | undefined)?.update;
        return {
          currency_code: method?.currency_code,
          update: Array.isArray(updates)
            ? updates.map((u) => ({ attribute: attributes.get((u as { id?: unknown } | null)?.id as string) }))
            : undefined,
        };
      },
    },
  };

  crudRoutes(app, {
    path: "/promotions",
    one: "promotion",
    many: "promotions",
    view: PromotionResponse,
    ...standardReads(service, ListPromotions),
    create: { body: PromotionCreate, run: (body) => service.create(body) },
    update: { body: PromotionUpdate, config: updateContext, run: (id, body) => service.update(id, body) },
    delete: (id) => service.delete(id),
  });

  // Medusa's `GET /admin/promotions/{id}/{rules,target-rules,buy-rules}`: one kind of rule, each
  // with the labels its dashboard shows (values are labelled by themselves: ids, codes, amounts),
  // then the application method's fields its form shows as rules (`disguisedRules`). As in Medusa,
  // a promotion not (yet) there has none of its own: the create form asks for `null`'s, with the
  // promotion being written in the query, and gets the disguised rules it must fill in.
  for (const [path, kind] of batches) {
    app.get(
      `/promotions/:id/${path}`,
      { schema: { params: IdParams, querystring: RulesQuery, response: RulesAnswer } },
      async (request) => {
        const [promotion] = (await service.list({ id: [request.params.id] }, { limit: 1, offset: 0 })).items;
        const rules = !promotion
          ? []
          : kind === "promotion"
            ? promotion.rules
            : kind === "target"
              ? (promotion.application_method?.target_rules ?? [])
              : (promotion.application_method?.buy_rules ?? []);
        const context = formContext(promotion, request.query);
        const labels = await Promise.all(rules.map((rule) => valueLabels(app.modules, path, context, rule)));
        return {
          rules: [
            ...rules.map((rule, i) => {
              const canonical = ruleAttribute(rule.attribute);
              return {
                id: rule.id,
                attribute: rule.attribute,
                operator: rule.operator,
                description: rule.description ?? null,
                attribute_label: canonical ? ATTRIBUTE_LABELS[canonical] : rule.attribute,
                operator_label: OPERATOR_LABELS[rule.operator] ?? rule.operator,
                field_type:
                  canonical && NUMERIC_ATTRIBUTES.has(canonical) ? ("number" as const) : ("multiselect" as const),
                values: rule.values.map((v) => ({
                  id: v.id,
                  value: v.value,
                  label: labels[i]!.get(v.value) ?? v.value,
                })),
              };
            }),
            ...disguisedRules(path, promotion, context),
          ],
        };
      },
    );
  }

  // Medusa's rule form: which attributes a rule may test, then the records it can name.
  app.get(
    "/promotions/rule-attribute-options/:rule_type",
    { schema: { params: RuleTypeParams, querystring: RuleOptionsQuery, response: AttributeOptionsAnswer } },
    async (request) => {
      return { attributes: ruleAttributeOptions(request.params.rule_type, request.query) };
    },
  );

  app.get(
    "/promotions/rule-value-options/:rule_type/:rule_attribute_id",
    { schema: { params: RuleValueParams, querystring: RuleValueQuery, response: ValueOptionsAnswer } },
    async (request) => {
      const { id, value, ...query } = request.query;
      const chosen = id || value ? { value: [...(value ?? []), ...(id ?? [])] } : {};
      return {
        values: await ruleValueOptions(app.modules, request.params.rule_type, request.params.rule_attribute_id, {
          ...query,
          ...chosen,
        }),
      };
    },
  );

  for (const [path, kind] of batches) {
    app.post(
      `/promotions/:id/${path}/batch`,
      { config: rulesContext, schema: { params: IdParams, body: RuleBatch, response: { 200: RuleBatchResponse } } },
      async (request) => {
        return service.batchRules(request.params.id, kind, request.body);
      },
    );
  }
}

/** The promotion a rule form is about, as the form names it: the stored one's, else the query's. */
function formContext(promotion: PromotionView | undefined, query: RuleOptionsContext): RuleOptionsContext {
  const method = promotion?.application_method;
  if (!method) return query;
  return {
    promotion_type: promotion.type,
    // Medusa has no free-shipping method type: its form treats such a promotion as not fixed.
    ...(method.type === "free_shipping" ? {} : { application_method_type: method.type }),
    application_method_target_type: method.target_type,
  };
}

/**
 * The labels of a rule's values as the form's value list names them (a region by its name, a
 * product by its title), from one read of the records they name; a value naming no record (or an
 * attribute without a list) is labelled by itself.
 */
async function valueLabels(
  modules: Modules,
  ruleType: RuleType,
  context: RuleOptionsContext,
  rule: RuleView,
): Promise<Map<string, string>> {
  const canonical = ruleAttribute(rule.attribute);
  const option = ruleAttributeOptions(ruleType, context).find(
    (o) => o.field_type === "multiselect" && ruleAttribute(o.value) === canonical,
  );
  if (!option || rule.values.length === 0) return new Map();
  const value = rule.values.map((v) => v.value);
  const found = await ruleValueOptions(modules, ruleType, option.id, { value, limit: value.length, offset: 0 });
  return new Map(found.map((o) => [o.value, o.label]));
}

/**
 * The application method's fields Medusa's form shows as rules of `ruleType` (the fixed amount's
 * currency, a buy-get's quantities): each required one, and each the promotion has a value for,
 * with that value. The form writes them back as fields of the application method.
 */
function disguisedRules(ruleType: RuleType, promotion: PromotionView | undefined, context: RuleOptionsContext) {
  const method = promotion?.application_method;
  return ruleAttributeOptions(ruleType, context).flatMap((option) => {
    if (!option.disguised) return [];
    const value = method ? (method as unknown as Record<string, string | number | null>)[option.id] : null;
    if (!option.required && value == null) return [];
    return [
      {
        attribute: option.id,
        operator: "eq",
        description: null,
        attribute_label: option.label,
        operator_label: OPERATOR_LABELS.eq,
        field_type: option.field_type,
        required: option.required,
        disguised: true,
        values: value == null ? [] : [{ value: String(value), label: String(value) }],
      },
    ];
  });
}
