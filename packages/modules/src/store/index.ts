export * from "./schema";
export { createStoreService, type StoreService, type Store, type StoreDefaults, type StoreReferences } from "./service";
export * from "./steps";
