/**
 * Every ISO 4217 currency this runtime knows (lower case): the same set the reference-data
 * migration seeds into the `currency` table, from the same Intl data. Modules validate codes
 * against it without reading another module's table.
 */
export const ISO_CURRENCY_CODES: ReadonlySet<string> = new Set(
  Intl.supportedValuesOf("currency").map((code) => code.toLowerCase()),
);

/** Whether `code` (any case) is an ISO 4217 currency code. */
export const isCurrencyCode = (code: string): boolean => ISO_CURRENCY_CODES.has(code.toLowerCase());
