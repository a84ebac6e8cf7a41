export * from "./schema";
export {
  createCartService,
  toAddress,
  type CartService,
  type CartState,
  type CartInsert,
  type LineItemInsert,
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
