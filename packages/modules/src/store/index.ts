export { createStoreService, type StoreService, type Store, type StoreDefaults, type StoreReferences } from "./service";
export { updateStoreStep, type UpdateStoreStepInput } from "./steps";
export * from "./shapes";
