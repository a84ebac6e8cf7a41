export * from "./schema";
export { createCurrencyService, type CurrencyService, type Currency } from "./service";
