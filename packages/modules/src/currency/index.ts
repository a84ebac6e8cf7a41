export { createCurrencyService, type CurrencyService, type Currency } from "./service";
export * from "./shapes";
