export type { Database, Db, DriverKind, Tx } from "./types";
export { connect, type ConnectOptions } from "./connect";
export {
  migrate,
  migrationsFolder,
  migrationStatus,
  assertMigrated,
  MigrationsPendingError,
  type MigrationStatus,
} from "./migrate";
export { transaction, isTransaction, lockKeys, readSnapshot } from "./transaction";
export { withTimeout } from "./timeout";
export { queryRows, readRows, restoreRows, type RowSnapshot } from "./rows";
export { generateId } from "./ids";
export {
  createdAt,
  entityTable,
  liveUniqueIndex,
  metadata,
  money,
  parentId,
  storedTotals,
  timestamps,
  timestamptz,
} from "./columns";
export { storedAddress, toStoredAddress, type StoredAddress } from "./address";
export * from "./errors";
export { providerRegistry, type ProviderRegistry } from "./registry";
export {
  anyOf,
  DEFAULT_LIMIT,
  existingIds,
  inList,
  MAX_LIMIT,
  MAX_OFFSET,
  likePattern,
  listPage,
  normalizeRange,
  orderBy,
  rangeConditions,
  sqlList,
  textSearch,
  toDate,
  type Paging,
  type RangeFilter,
} from "./list";
export { groupBy, groupByParent, liveRecords, rowsByParent, type ListPaging } from "./records";
export { updateLinks } from "./links";
export { builtOnce, builtPerShape, builtRowsInsert, builtRowWrite, idList, inParam, param, slot } from "./built-once";
export { jsonRelation, fromJson, type JsonRelation } from "./json-rows";
export { pgErrorCode, pgConstraint, isUniqueViolation, isForeignKeyViolation, postgresTarget } from "./pg-error";
export { SetupError } from "./setup-error";
export { idempotencyKey, type IdempotencyKeyRow } from "./schema";
export { CART_TABLES, CATALOG_TABLES, catalogVersionReader, currentCartVersion } from "./catalog-version";
export {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  IDEMPOTENCY_TTL_MS,
  IDEMPOTENCY_STALE_MS,
  type IdempotencyClaim,
  type StoredResponse,
} from "./idempotency";
export { ISO_CURRENCY_CODES, isCurrencyCode } from "./currencies";
export { deriveKey, seal, unseal } from "./sealed";
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
} from "./input";
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
  isMoneyColumn,
  type MoneyCondition,
  type MoneyMarker,
} from "./money";
export { AnyJson, Extend, ListView, MetadataView, OrNull, RowView, TimestampView, View, rowProperties } from "./views";
