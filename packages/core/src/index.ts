// What every layer shares and no database is needed for: the error catalog, ids, money, the
// request-schema building blocks, sealing and redaction of secrets, currencies, provider registries.
export * from "./errors";
export { generateId } from "./ids";
export { providerRegistry, type ProviderRegistry } from "./registry";
export { ISO_CURRENCY_CODES, isCurrencyCode } from "./currencies";
export { deriveKey, seal, unseal } from "./sealed";
export { hashSecret } from "./secret-hash";
export { REDACTED, scrubText, scrubValue, scrubError } from "./redact";
export {
  MAX_LENGTH,
  MAX_INTEGER,
  METADATA_LIMITS,
  MAX_PROVIDER_DATA_LENGTH,
  MAX_JSON_LENGTH_KEYWORD,
  HANDLE_PATTERN,
  PATTERN_MESSAGES,
  isEmailAddress,
  normalizeEmail,
  Id,
  Code,
  Title,
  LongText,
  Url,
  Secret,
  MIN_PASSWORD_LENGTH,
  Password,
  DateTime,
  Handle,
  BlankableHandle,
  Email,
  Amount,
  Count,
  CurrencyCode,
  CountryCode,
  LocaleCode,
  Metadata,
  OptionalMetadata,
  ProviderData,
  Strict,
  LinkChanges,
  Batch,
} from "./input";
export { FileUrl, FileUrlView, isFileUrl } from "./file-url";
export {
  MAX_AMOUNT,
  MAX_TOTAL,
  MONEY_KEYWORD,
  Money,
  addMoney,
  multiplyMoney,
  MoneyView,
  MoneyWhen,
  moneyMarker,
  type MoneyCondition,
  type MoneyMarker,
} from "./money";
