import type { Column } from "drizzle-orm";

/**
 * A mark some columns carry, kept with their builders' configs (a drizzle column keeps its builder's
 * config object): `mark` records a column builder as marked, `has` tells whether a column was.
 */
function columnMark() {
  const configs = new WeakSet<object>();
  return {
    mark<B extends object>(builder: B): B {
      configs.add((builder as unknown as { config: object }).config);
      return builder;
    },
    has: (column: Column): boolean => configs.has((column as unknown as { config: object }).config),
  };
}

const moneyColumns = columnMark();
const fileUrlColumns = columnMark();

/** Records a `money()` column builder, so views derived from its table mark it as money. */
export const registerMoneyColumn = moneyColumns.mark;

/** Whether a drizzle column was declared with `money()`. */
export const isMoneyColumn = moneyColumns.has;

/** Records a `fileUrl()` column builder, so views derived from its table mark it as a picture's URL. */
export const registerFileUrlColumn = fileUrlColumns.mark;

/** Whether a drizzle column was declared with `fileUrl()`. */
export const isFileUrlColumn = fileUrlColumns.has;
