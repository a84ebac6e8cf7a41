export { createCurrencyService, type CurrencyService, type Currency } from "./service";
export { CurrencyUpdate, CurrencyView, type CurrencyFilters, type CurrencyRow } from "./shapes";
