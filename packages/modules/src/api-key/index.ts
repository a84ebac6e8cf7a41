export * from "./schema";
export { createApiKeyService, hashToken, type ApiKeyService, type ApiKeyDetails } from "./service";
