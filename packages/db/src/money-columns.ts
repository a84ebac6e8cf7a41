import type { Column } from "drizzle-orm";

/** Configs of the columns made by `money()` (a drizzle column keeps its builder's config object). */
const moneyColumnConfigs = new WeakSet<object>();

/** Records a `money()` column builder's config, so views derived from its table mark it as money. */
export function registerMoneyColumn<B extends object>(builder: B): B {
  moneyColumnConfigs.add((builder as unknown as { config: object }).config);
  return builder;
}

/** Whether a drizzle column was declared with `money()`. */
export const isMoneyColumn = (column: Column): boolean =>
  moneyColumnConfigs.has((column as unknown as { config: object }).config);

/** Configs of the columns made by `fileUrl()`. */
const fileUrlColumnConfigs = new WeakSet<object>();

/** Records a `fileUrl()` column builder's config, so views derived from its table mark it as a picture's URL. */
export function registerFileUrlColumn<B extends object>(builder: B): B {
  fileUrlColumnConfigs.add((builder as unknown as { config: object }).config);
  return builder;
}

/** Whether a drizzle column was declared with `fileUrl()`. */
export const isFileUrlColumn = (column: Column): boolean =>
  fileUrlColumnConfigs.has((column as unknown as { config: object }).config);
