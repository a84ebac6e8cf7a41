import { errors, generateId } from "@kasse/core";
import { transaction } from "@kasse/db";
import { fulfillmentQueries as q } from "./queries";
import type { ShippingOptionTypeRow } from "./schema";
import type { ShippingOptionTypeCreate, ShippingOptionTypeUpdate } from "./shapes";

/** What a shipping option keeps of its type (its `type`), as Medusa answers it. */
export function optionTypeOf(row: ShippingOptionTypeRow) {
  return { id: row.id, label: row.label, code: row.code, description: row.description };
}

/**
 * The type an option created without one gets (Medusa requires every option to have a type, and
 * its dashboard's option forms read it); migration 0018 gave it to the options created before.
 */
export const DEFAULT_OPTION_TYPE = {
  label: "Default",
  code: "default",
  description: "Given to shipping options created without a type",
} as const;

/**
 * The live type of `input.code`, created from `input` when there is none (Medusa's clients may
 * name an option's type by its label and code rather than by id): every option then has a type
 * record, which the dashboard's option forms need.
 */
export async function typeOfCode(input: {
  label: string;
  code: string;
  description?: string | null;
}): Promise<ShippingOptionTypeRow> {
  const existing = await q.typeOfCode({ code: input.code });
  if (existing) return existing;
  const created = await q.insertTypeIfAbsent({
    id: generateId("sotype"),
    label: input.label,
    code: input.code,
    description: input.description ?? null,
  });
  // Created by a concurrent request in between: the unique index kept one.
  return created ?? (await q.typeOfCode({ code: input.code }))!;
}

/**
 * Shipping option types (Medusa's `/admin/shipping-option-types`): CRUD with a unique `code`, soft
 * delete. An option created with a type keeps its label, code and description in its `type`, which
 * an update of the type rewrites in the same transaction. Built once per process.
 * @example
 * const standard = await createShippingOptionTypeService().create({ label: "Standard", code: "standard" });
 */
export function createShippingOptionTypeService() {
  const taken = (code: string | undefined) => `Shipping option type with code: ${code} already exists`;
  return {
    create: (input: ShippingOptionTypeCreate): Promise<ShippingOptionTypeRow> =>
      q.insertType(
        { id: generateId("sotype"), label: input.label, code: input.code, description: input.description ?? null },
        taken(input.code),
      ),

    retrieve: q.retrieveType,

    list: q.listTypes,

    /** Updates the type and the `type` of the options created with it, together. */
    update: (id: string, input: ShippingOptionTypeUpdate): Promise<ShippingOptionTypeRow> =>
      transaction(async () => {
        const row = await q.updateType(id, input, taken(input.code));
        await q.setTypeOfOptions({ type_id: id, type: optionTypeOf(row), updated_at: new Date() });
        return row;
      }),

    /** Soft delete; refused while live shipping options are of the type. */
    async delete(id: string): Promise<void> {
      await q.retrieveType(id);
      if (await q.optionOfType({ id }))
        throw errors.notAllowed(`Shipping option type ${id} is used by shipping options; delete them first`);
      await q.softDeleteType(id);
    },
  };
}

export type ShippingOptionTypeService = ReturnType<typeof createShippingOptionTypeService>;
