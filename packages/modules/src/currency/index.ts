export { createCurrencyService, type CurrencyService } from "./service";
export * from "./shapes";
