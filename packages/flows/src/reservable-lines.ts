import { errors } from "@kasse/core";
import type { ReserveForLinesInput } from "@kasse/modules/inventory";

/** A line about to be reserved: a cart's at checkout, a converted draft's. */
interface LineToReserve {
  id: string;
  variant_id: string;
  title: string;
  quantity: number;
}

/**
 * The lines to reserve among `items`, given their variants' inventory flags: a variant that does
 * not manage inventory is sold without reservations (as in Medusa); a variant that is gone refuses
 * the sale (400).
 */
export function reservableLines(
  items: LineToReserve[],
  variants: Array<{ id: string; manage_inventory: boolean; allow_backorder: boolean }>,
): ReserveForLinesInput["lines"] {
  const flags = new Map(variants.map((v) => [v.id, v]));
  const lines: ReserveForLinesInput["lines"] = [];
  for (const item of items) {
    const variant = flags.get(item.variant_id);
    if (!variant)
      throw errors.invalidData(`Variant ${item.variant_id} of line item ${item.id} (${item.title}) no longer exists`);
    if (variant.manage_inventory)
      lines.push({
        line_item_id: item.id,
        variant_id: item.variant_id,
        quantity: item.quantity,
        allow_backorder: variant.allow_backorder,
      });
  }
  return lines;
}
