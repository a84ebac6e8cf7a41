export { createApiKeyService, hashToken, type ApiKeyService, type ApiKeyDetails } from "./service";
export * from "./shapes";
