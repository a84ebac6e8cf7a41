export { createApiKeyService, hashToken, type ApiKeyService, type ApiKeyDetails } from "./service";
export {
  ApiKeyCreate,
  ApiKeySalesChannels,
  ApiKeyTypeSchema,
  ApiKeyUpdate,
  ApiKeyView,
  type ApiKeyFilters,
  type ApiKeyRow,
  type ApiKeyType,
} from "./shapes";
