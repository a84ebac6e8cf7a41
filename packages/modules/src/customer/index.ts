export * from "./schema";
export {
  createCustomerService,
  type CustomerService,
  type CustomerDetail,
  type CustomerCreateContext,
} from "./service";
export * from "./steps";
