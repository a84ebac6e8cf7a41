import {
  Type,
  type IntegerOptions,
  type ObjectOptions,
  type StringOptions,
  type TProperties,
  type TSchema,
} from "@sinclair/typebox";
import { MAX_AMOUNT, Money } from "./money";

/**
 * The longest value each kind of request string may be, in characters (docs/api.md "Input limits").
 * Every string a route accepts is one of these kinds, so nothing reaches a column, an index or a
 * provider that it cannot hold: the longest (10,000 characters, 40 KB of UTF-8) stays far below a
 * 1 MB body, and every kind that is indexed with a btree (ids, codes, handles, emails, titles)
 * stays below PostgreSQL's 2,704-byte index row even in 4-byte characters.
 */
export const MAX_LENGTH = {
  /** Ids of Kasse records (`prod_01J…` is 31) and of outside ones (provider ids, external ids). */
  id: 128,
  /** Machine values: SKUs, barcodes, promotion codes, provider names, filter values. */
  code: 200,
  /** URL handles; Shopify's limit. */
  handle: 255,
  /** Email addresses: 64 for the local part, `@`, 255 for the domain. */
  email: 320,
  /** One line of human text: titles, names, labels, address lines, phone numbers, searches. */
  title: 255,
  /** Prose: descriptions, notes, reasons, messages. */
  text: 10_000,
  /** URLs: the de-facto limit of browsers and the sitemap protocol. */
  url: 2_048,
  /** Passwords and one-time tokens (a password is hashed, so its length costs CPU). */
  secret: 1_024,
  /** ISO 8601 timestamps (`2026-01-31T23:59:59.999+01:00` is 29). */
  dateTime: 64,
} as const;

/**
 * The largest integers a request may carry: amounts up to {@link MAX_AMOUNT} (10^13 minor units,
 * so that sums of them stay far inside JavaScript's exact integers; totals are checked by
 * `addMoney`); quantities, ranks and counts up to PostgreSQL's `integer`.
 */
export const MAX_INTEGER = { amount: MAX_AMOUNT, count: 2_147_483_647 } as const;

/** Payment-API limits of `metadata` (Stripe's): keys per object, characters per key and per value. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** The longest free JSON object a provider receives (`data`, `context`), as JSON text. */
export const MAX_PROVIDER_DATA_LENGTH = 10_000;

/**
 * A non-standard schema keyword: the value, written as JSON, is at most this many characters (a
 * string counts its characters, without quotes). The API's validator implements it; OpenAPI
 * readers see it as a vendor extension.
 */
export const MAX_JSON_LENGTH_KEYWORD = "x-max-json-length";

/** The shape a generated or explicit handle must have: lower-case ASCII words joined by single hyphens. */
export const HANDLE_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";

/**
 * An email address as Kasse takes it: a dot-atom local part (RFC 5322's letters, digits and
 * `!#$%&'*+/=?^_\`{|}~-`, dot-separated), one `@`, and a domain of letters, digits and inner
 * hyphens in dot-separated labels of at most 63 characters whose last label starts with a letter.
 * No space, quote, comma, semicolon, angle bracket or control character can appear, so an address
 * is always one mailbox, safe in a mail header (`To:`), never a list or a display name.
 */
const EMAIL_PATTERN =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$";

/**
 * One line of text: no control character (C0 with CR, LF and TAB, DEL, C1) and no Unicode line or
 * paragraph separator. What a name or an address line holds flows into emails and their headers.
 */
const SINGLE_LINE_PATTERN = "^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$";

/** What a request value failing one of the shared patterns is told (the validator's own message quotes the pattern). */
export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [EMAIL_PATTERN]: "must be an email address (name@example.com)",
  [SINGLE_LINE_PATTERN]: "must be one line of text, without control characters (line breaks, tabs)",
};

const emailAddress = new RegExp(EMAIL_PATTERN);

/** Whether `value` is an email address as {@link Email} takes it (and at most 320 characters). */
export const isEmailAddress = (value: string): boolean => value.length <= MAX_LENGTH.email && emailAddress.test(value);

/** Emails are compared case-insensitively: stored, and looked up, trimmed and lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const bounded =
  (maxLength: number) =>
  (options: StringOptions = {}) =>
    Type.String({ maxLength, ...options });

/** An id (of a Kasse record or a provider's). */
export const Id = bounded(MAX_LENGTH.id);
/** A machine value: SKU, barcode, promotion code, provider name, filter value. */
export const Code = bounded(MAX_LENGTH.code);
/**
 * One line of human text: a title, a name, a label, an address line, a phone number, a search.
 * Control characters (line breaks, tabs) are refused: see {@link SINGLE_LINE_PATTERN}.
 */
export const Title = (options: StringOptions = {}) =>
  Type.String({ maxLength: MAX_LENGTH.title, pattern: SINGLE_LINE_PATTERN, ...options });
/** Prose: a description, a note, a reason, a message. */
export const LongText = bounded(MAX_LENGTH.text);
/** A URL (not checked for shape: storefronts send relative ones). */
export const Url = bounded(MAX_LENGTH.url);
/** A password or a one-time token. */
export const Secret = bounded(MAX_LENGTH.secret);
/**
 * The fewest characters a new password may have: NIST SP 800-63B's minimum for a password the
 * user chooses. Signing in takes any length (a password set before keeps working).
 */
export const MIN_PASSWORD_LENGTH = 8;
/** A new password (registration, change, reset): 8 to 1,024 characters. */
export const Password = () => Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_LENGTH.secret });
/** An ISO 8601 timestamp. */
export const DateTime = (options: StringOptions = {}) =>
  Type.String({ format: "date-time", maxLength: MAX_LENGTH.dateTime, ...options });
/** A URL handle: lower-case ASCII words joined by hyphens, at most 255 characters. */
export const Handle = (options: StringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: MAX_LENGTH.handle, pattern: HANDLE_PATTERN, ...options });
/** A handle on create, where blank means "generate it from the title" as absent does (Medusa's forms send the empty field). */
export const BlankableHandle = () => Type.Union([Handle(), Type.Literal("")]);
/** A lower-case ISO 4217 currency code (`usd`); upper case is accepted and lowered by the service. */
export const CurrencyCode = () => Type.String({ minLength: 3, maxLength: 3, pattern: "^[A-Za-z]{3}$" });
/** A two-letter ISO 3166 country code. */
export const CountryCode = () => Type.String({ minLength: 2, maxLength: 2, pattern: "^[A-Za-z]{2}$" });
/** A BCP 47 language tag (`en-US`, `de`, `zh-Hant-TW`). */
export const LocaleCode = () =>
  Type.String({ minLength: 2, maxLength: 35, pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$" });
/** An email address ({@link EMAIL_PATTERN}: `local@domain.tld`, one mailbox), at most 320 characters. */
export const Email = (options: StringOptions = {}) =>
  Type.String({ minLength: 3, maxLength: MAX_LENGTH.email, pattern: EMAIL_PATTERN, ...options });

/** An amount in integer minor units, 0 or more by default: the same schema as `Money` (marked as money). */
export const Amount = Money;
/** A quantity, a rank or a count, 0 or more by default. */
export const Count = (options: IntegerOptions = {}) =>
  Type.Integer({ minimum: 0, maximum: MAX_INTEGER.count, ...options });

/**
 * `metadata`, with a payment API's limits (Stripe's): at most 50 keys of at most 40 characters,
 * each value at most 500 characters. A value may be any JSON (Medusa's metadata is free JSON):
 * a string counts its characters, anything else (number, object, array) its JSON text, so a
 * nested value is bounded by the same 500 characters, keys and punctuation included. Callers add
 * `Type.Optional` / null as the route takes it; the route-walk test requires this one schema for
 * every `metadata` field.
 */
export const Metadata = () =>
  Type.Record(Type.String(), Type.Unknown({ [MAX_JSON_LENGTH_KEYWORD]: METADATA_LIMITS.valueLength }), {
    maxProperties: METADATA_LIMITS.keys,
    propertyNames: { maxLength: METADATA_LIMITS.keyLength },
  });

/** `metadata` as most writes take it: absent, an object, or null to clear it. */
export const OptionalMetadata = () => Type.Optional(Type.Union([Metadata(), Type.Null()]));

/** A free JSON object handed to a provider (payment session `data`, shipping `data`): at most 10,000 characters as JSON. */
export const ProviderData = () =>
  Type.Record(Type.String(), Type.Unknown(), { [MAX_JSON_LENGTH_KEYWORD]: MAX_PROVIDER_DATA_LENGTH });

/**
 * An object that refuses every key it does not list (`additionalProperties: false`): what every
 * request body, query and object inside one is, and the answers that carry secrets.
 * @example
 * export const TagCreate = Strict({ value: Title(), metadata: OptionalMetadata() });
 */
export const Strict = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** The ids a relation gains (`add`) and loses (`remove`), each list at most `maxItems` long: Medusa's link bodies. */
export const LinkChanges = (maxItems: number) =>
  Strict({
    add: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems })),
    remove: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems })),
  });

/** Medusa's batch body: rows to `create`, rows to `update`, ids to `delete`, each list at most `maxItems` long. */
export const Batch = <C extends TSchema, U extends TSchema>(create: C, update: U, maxItems: number) =>
  Strict({
    create: Type.Optional(Type.Array(create, { maxItems })),
    update: Type.Optional(Type.Array(update, { maxItems })),
    delete: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems })),
  });
