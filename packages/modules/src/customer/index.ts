export {
  createCustomerService,
  type CustomerService,
  type CustomerDetail,
  type CustomerCreateContext,
} from "./service";
export * from "./steps";
export * from "./shapes";
