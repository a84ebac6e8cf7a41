import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { addTaxRateRule, createTaxRate, updateTaxRate } from "@kasse/flows";
import { TaxRateCreate, TaxRateRuleInput, TaxRateUpdate, TaxRateView } from "@kasse/modules/tax";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { Answer, DeleteResponse, ListQueryOf, deleted } from "../../http/schemas";

const Params = Type.Object({ id: Id() }, { additionalProperties: false });
const RuleParams = Type.Object({ id: Id(), rule_id: Id() }, { additionalProperties: false });
const ListTaxRates = ListQueryOf(
  { id: Id(), tax_region_id: Id(), code: Code() },
  { q: Type.Optional(Title()), is_default: Type.Optional(Type.Boolean()) },
);
const DeletedRule = { 200: Type.Object({ ...DeleteResponse.properties, parent: TaxRateView }) };

const actor = (request: FastifyRequest) => request.auth?.actor_id ?? null;

/**
 * Admin tax rates (Medusa's `/admin/tax-rates`): a region's default rate, and override rates whose
 * rules name the products, product types or shipping options they apply to instead of the default
 * (`/admin/tax-rates/{id}/rules`).
 */
export default async function taxRates(app: App): Promise<void> {
  const service = app.modules.tax;
  crudRoutes(app, {
    path: "/tax-rates",
    one: "tax_rate",
    many: "tax_rates",
    view: TaxRateView,
    params: Params,
    list: { query: ListTaxRates, run: (filters, page) => service.listRates(filters, page) },
    retrieve: (id) => service.retrieveRate(id),
    create: { body: TaxRateCreate, run: (body, request) => createTaxRate(app.modules, body, actor(request)) },
    update: { body: TaxRateUpdate, run: (id, body) => updateTaxRate(app.modules, id, body, null) },
    delete: (id) => service.deleteRate(id),
  });

  app.post(
    "/tax-rates/:id/rules",
    { schema: { params: Params, body: TaxRateRuleInput, response: Answer("tax_rate", TaxRateView) } },
    async (request) => ({
      tax_rate: await addTaxRateRule(app.modules, request.params.id, request.body, actor(request)),
    }),
  );

  app.delete(
    "/tax-rates/:id/rules/:rule_id",
    { schema: { params: RuleParams, response: DeletedRule } },
    async (request) => {
      const parent = await service.deleteRateRule(request.params.id, request.params.rule_id);
      return deleted(request.params.rule_id, "tax_rate_rule", { parent });
    },
  );
}
