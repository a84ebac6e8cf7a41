import { and, eq, isNull, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { transaction, type Db, type ListPaging, anyOf, liveRecords, textSearch } from "@kasse/db";
import {
  shippingOption,
  shippingOptionType,
  type ShippingOptionTypeCreate,
  type ShippingOptionTypeRow,
  type ShippingOptionTypeUpdate,
} from "./schema";

/** Filters of `GET /admin/shipping-option-types`. */
export interface ShippingOptionTypeFilters {
  id?: string[];
  code?: string[];
  label?: string[];
  q?: string;
}

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
export async function typeOfCode(
  db: Db,
  input: { label: string; code: string; description?: string | null },
): Promise<ShippingOptionTypeRow> {
  const find = () =>
    db
      .select()
      .from(shippingOptionType)
      .where(and(eq(shippingOptionType.code, input.code), isNull(shippingOptionType.deleted_at)))
      .limit(1);
  const [existing] = await find();
  if (existing) return existing;
  const [created] = await db
    .insert(shippingOptionType)
    .values({ id: generateId("sotype"), label: input.label, code: input.code, description: input.description ?? null })
    .onConflictDoNothing()
    .returning();
  // Created by a concurrent request in between: the unique index kept one.
  return created ?? (await find())[0]!;
}

/**
 * Shipping option types (Medusa's `/admin/shipping-option-types`): CRUD with a unique `code`, soft
 * delete. An option created with a type keeps its label, code and description in its `type`, which
 * an update of the type rewrites in the same transaction.
 * @example
 * const standard = await createShippingOptionTypeService(db).create({ label: "Standard", code: "standard" });
 */
export function createShippingOptionTypeService(db: Db) {
  const rows = liveRecords(db, shippingOptionType, "Shipping option type", {
    label: shippingOptionType.label,
    code: shippingOptionType.code,
  });
  const taken = (code: string | undefined) => `Shipping option type with code: ${code} already exists`;
  return {
    create: (input: ShippingOptionTypeCreate): Promise<ShippingOptionTypeRow> =>
      rows.insert(
        { id: generateId("sotype"), label: input.label, code: input.code, description: input.description ?? null },
        taken(input.code),
      ),

    retrieve: (id: string): Promise<ShippingOptionTypeRow> => rows.retrieve(id),

    list: (filters: ShippingOptionTypeFilters, page: ListPaging) => rows.list(conditions(filters), page),

    /** Updates the type and the `type` of the options created with it, together. */
    update: (id: string, input: ShippingOptionTypeUpdate): Promise<ShippingOptionTypeRow> =>
      transaction(db, async (tx) => {
        const row = await liveRecords(tx, shippingOptionType, "Shipping option type").update(
          id,
          input,
          taken(input.code),
        );
        await tx
          .update(shippingOption)
          .set({ type: optionTypeOf(row) })
          .where(eq(shippingOption.shipping_option_type_id, id));
        return row;
      }),

    /** Soft delete; refused while live shipping options are of the type. */
    async delete(id: string): Promise<void> {
      await rows.retrieve(id);
      const [used] = await db
        .select({ id: shippingOption.id })
        .from(shippingOption)
        .where(and(eq(shippingOption.shipping_option_type_id, id), isNull(shippingOption.deleted_at)))
        .limit(1);
      if (used) throw errors.notAllowed(`Shipping option type ${id} is used by shipping options; delete them first`);
      await rows.softDelete(id);
    },
  };
}

export type ShippingOptionTypeService = ReturnType<typeof createShippingOptionTypeService>;

function conditions(filters: ShippingOptionTypeFilters): SQL[] {
  const out = anyOf(filters, {
    id: shippingOptionType.id,
    code: shippingOptionType.code,
    label: shippingOptionType.label,
  });
  out.push(
    ...textSearch(filters.q, [shippingOptionType.label, shippingOptionType.code, shippingOptionType.description]),
  );
  return out;
}
