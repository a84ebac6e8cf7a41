export {
  createCartService,
  toAddress,
  replacedBy,
  catalogMoved,
  datesPassed,
  type CartService,
  type CartState,
  type CartInsert,
  type LineItemInsert,
  type ShippingMethodInsert,
  type ComputedLine,
} from "./service";
export {
  computeTotals,
  type CartTotals,
  type LineTotals,
  type ComputedTotals,
  type TotalsLineInput,
  type TotalsShippingInput,
} from "./totals";
export * from "./shapes";
