export type { Database, Db, DriverKind, HeldLock, Tx } from "./types";
export { connect, type ConnectOptions } from "./connect";
export {
  migrate,
  migrationsFolder,
  migrationStatus,
  assertMigrated,
  MigrationsPendingError,
  type MigrationStatus,
} from "./migrate";
export {
  db,
  currentHandle,
  inTransaction,
  lockKeys,
  onDatabase,
  readSnapshot,
  runsOn,
  transaction,
  useDatabase,
} from "./ambient";
export { withTimeout } from "./timeout";
export { queryRows, readRows, restoreRows, type RowSnapshot } from "./rows";
export {
  createdAt,
  entityTable,
  fileUrl,
  indexes,
  liveUniqueIndex,
  metadata,
  money,
  parentId,
  storedTotals,
  timestamps,
  timestamptz,
} from "./columns";
export {
  bigint,
  boolean,
  doublePrecision,
  index,
  indexWhere,
  integer,
  jsonb,
  lowerCase,
  nonNegative,
  numeric,
  pgTable,
  positive,
  primaryKey,
  rowExpression,
  searchText,
  text,
  trigramIndex,
  uniqueIndex,
} from "./table-builders";
export { storedAddress, toStoredAddress, type StoredAddress } from "./address";
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_OFFSET,
  likePattern,
  listPage,
  viewPage,
  normalizeRange,
  orderBy,
  rangeConditions,
  textSearch,
  toDate,
  type ListFilters,
  type Paging,
  type RangeFilter,
} from "./list";
export { builtStatement, first, inFilters, inList, rowsOf, statement, type Placeholders } from "./statement";
export { insertRows } from "./rows-insert";
export { groupBy, liveRecords, type ListPaging, type LiveRecords } from "./records";
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
export { isMoneyColumn } from "./money-columns";
export { AnyJson, Extend, ListView, MetadataView, OrNull, RowView, TimestampView, View, rowProperties } from "./views";
