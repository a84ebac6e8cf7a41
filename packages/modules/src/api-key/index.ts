export { createApiKeyService, type ApiKeyService, type ApiKeyDetails } from "./service";
export * from "./shapes";
