import { errors, MAX_INTEGER, moneyMarker, type MoneyMarker } from "@kasse/core";

/**
 * Money between Kasse's integer minor units and Medusa's major units (`1999` ⇄ `19.99` in a
 * 2-digit currency, `1999` ⇄ `1999` in JPY, `1999` ⇄ `1.999` in KWD), done on the decimal text
 * of the number, never by multiplying floats, so nothing drifts. The schema-driven walks below
 * are the one place Medusa's dialect converts (plugins/medusa-dialect.ts).
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** `value` in major units → integer minor units; `undefined` when it has more decimals than `digits` or is not a finite number. */
export function toMinor(value: number | string, digits: number): number | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) ? numberText(value) : "") : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  // All digits, and where the decimal point sits among them once shifted by `digits`.
  const all = `${whole}${fraction}`;
  const point = whole!.length + Number(exponent) + digits;
  if (point < 0) return /^0*$/.test(all) ? 0 : undefined;
  if (/[1-9]/.test(all.slice(point))) return undefined;
  const integer = (point >= all.length ? all.padEnd(point, "0") : all.slice(0, point)).replace(/^0+(?=\d)/, "") || "0";
  const minor = Number(integer);
  if (!Number.isSafeInteger(minor)) return undefined;
  return sign === "-" && minor !== 0 ? -minor : minor;
}

/** Integer minor units → major units as the nearest JSON number to the exact decimal (`1999`, 2 → `19.99`). */
export function toMajor(minor: number, digits: number): number {
  if (!Number.isSafeInteger(minor)) throw new Error(`not an amount in minor units: ${String(minor)}`);
  if (digits === 0) return minor;
  const text = Math.abs(minor)
    .toString()
    .padStart(digits + 1, "0");
  const major = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return Number(`${minor < 0 ? "-" : ""}${major}`);
}

/** A number's plain decimal text (`1e-7` → `0.0000001` is left to the exponent parser). */
const numberText = (value: number): string =>
  Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value);

type Schema = Record<string, unknown>;

/** How a walk finds the currency of an amount and the number of digits of a currency. */
export interface MoneyWalk {
  /** Decimal digits of a currency (lower-case code); 2 when the table does not know it. */
  digits: (currency: string) => number;
  /** A region's currency (requests name a region where they name no currency: shipping option prices). */
  regionCurrency?: (regionId: string) => Promise<string | undefined>;
  /** The same for answers, from what is already loaded (undefined: not known yet, see the dialect's hook). */
  knownRegionCurrency?: (regionId: string) => string | undefined;
}

/**
 * Defaults a route knows for what a request body leaves out, shaped like the body: the currency
 * (`currency_code`) and the fields a conditional amount depends on (`type`), at any level. A
 * payment capture's root is `{currency_code: <the payment's>}`; a promotion update's
 * `{application_method: {type, currency_code}}` from the stored promotion. Under an array, an
 * array gives each item its own defaults (by position) and an object gives all items the same.
 */
export type MoneyContext = { [key: string]: unknown };

/** An answer could not be converted: a money field with no currency in reach (a route or view bug). */
export class MissingCurrencyError extends Error {}

/** The schemas `schema` may stand for: itself, or the branches of its `anyOf`/`oneOf`/`allOf`. */
export function branches(schema: unknown): Schema[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as Schema;
  const out: Schema[] = [s];
  for (const key of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) out.push(...branches(b));
  return out;
}

/** The properties an object value may have under `schema` (several branches merge), each with its schemas. */
function objectProperties(schema: unknown): Map<string, Schema[]> {
  const props = new Map<string, Schema[]>();
  for (const b of branches(schema)) {
    if (!b.properties || typeof b.properties !== "object") continue;
    for (const [key, sub] of Object.entries(b.properties as Record<string, Schema>))
      props.set(key, [...(props.get(key) ?? []), sub]);
  }
  return props;
}

function itemSchemas(schema: unknown): Schema[] {
  return branches(schema).flatMap((b) =>
    b.items && typeof b.items === "object" && !Array.isArray(b.items) ? [b.items as Schema] : [],
  );
}

function markerOf(schemas: Schema[]): MoneyMarker | undefined {
  for (const s of schemas)
    for (const b of branches(s)) {
      const marker = moneyMarker(b as never);
      if (marker) return marker;
    }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  !(value instanceof Date) &&
  !Buffer.isBuffer(value);

const lower = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value.toLowerCase() : undefined;

/** Children whose `currency_code` is also their parent's: a promotion's application method, a shipping option's calculated price. */
const CURRENCY_CHILDREN = ["application_method", "calculated_price"] as const;

/**
 * The currency an object states for its own amounts and those below it: its `currency_code`
 * (or the route's context's at the same place), else that of a child that speaks for it (a
 * promotion's rules are in its application method's currency).
 */
function ownCurrency(value: Record<string, unknown>, context: MoneyContext | undefined): string | undefined {
  const direct = lower(value.currency_code) ?? lower(context?.currency_code);
  if (direct) return direct;
  for (const key of CURRENCY_CHILDREN) {
    const child = isObject(value[key])
      ? value[key]
      : isObject(context?.[key])
        ? (context[key] as Record<string, unknown>)
        : undefined;
    const code = lower(child?.currency_code);
    if (code) return code;
  }
  return undefined;
}

/**
 * Whether a marked field is money in `object`: always for `true`; for a conditional marker, by its
 * sibling in the object, else in the route's context, else the marker's default. Undefined when
 * none of them names the sibling: the field's kind cannot be known.
 */
function applies(
  marker: MoneyMarker,
  object: Record<string, unknown>,
  context: MoneyContext | undefined,
): boolean | undefined {
  if (marker === true) return true;
  const actual = object[marker.when.field] ?? context?.[marker.when.field] ?? marker.when.default;
  if (actual === undefined || actual === null) return undefined;
  return typeof actual === "string" && marker.when.in.includes(actual);
}

/** Whether a money field's value holds an amount that differs between the units (a non-zero number or numeric string). */
function holdsAmount(value: unknown): boolean {
  let found = false;
  eachAmount(value, "", (v) => {
    const numeric = typeof v === "number" || (typeof v === "string" && DECIMAL.test(v.trim()));
    if (numeric && Number(v) !== 0) found = true;
    return v;
  });
  return found;
}

/**
 * Converts every money amount of a request body from major to minor units, as the route's body
 * schema marks them (`Money`, `MoneyWhen`). Returns a new body; throws 400 `invalid_data` for an
 * amount with more decimals than its currency has, or one whose currency cannot be known.
 */
export async function bodyToMinor(
  body: unknown,
  schema: unknown,
  walk: MoneyWalk,
  context?: MoneyContext,
): Promise<unknown> {
  return inValue(body, [schema as Schema], walk, undefined, context, "");
}

async function inValue(
  value: unknown,
  schemas: Schema[],
  walk: MoneyWalk,
  currency: string | undefined,
  given: unknown,
  path: string,
): Promise<unknown> {
  if (Array.isArray(value)) {
    const items = schemas.flatMap(itemSchemas);
    if (items.length === 0) return value;
    const out: unknown[] = [];
    for (const [i, item] of value.entries())
      out.push(await inValue(item, items, walk, currency, Array.isArray(given) ? given[i] : given, `${path}[${i}]`));
    return out;
  }
  const context = isObject(given) ? given : undefined;
  if (!isObject(value)) return value;
  const props = new Map<string, Schema[]>();
  for (const s of schemas) for (const [k, v] of objectProperties(s)) props.set(k, [...(props.get(k) ?? []), ...v]);
  if (props.size === 0) return value;
  let here = ownCurrency(value, context);
  if (!here && typeof value.region_id === "string" && walk.regionCurrency)
    here = await walk.regionCurrency(value.region_id);
  here ??= currency;
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(value)) {
    const sub = props.get(key);
    if (!sub || field === null || field === undefined) continue;
    const where = path ? `${path}.${key}` : key;
    const subContext = context?.[key];
    const marker = markerOf(sub);
    if (marker) {
      const money = applies(marker, value, context);
      // A conditional amount whose condition nothing names (a rule update without its
      // `attribute`, on a route with no context for it) is refused, never stored unconverted.
      if (money === undefined && marker !== true && holdsAmount(field))
        throw errors.invalidData(
          `${where}: name its ${marker.when.field} to say whether ${String(field)} is an amount`,
        );
      if (money) out[key] = eachAmount(field, where, (v, at) => amountToMinor(v, here, walk, at));
      continue;
    }
    out[key] = await inValue(field, sub, walk, here, subContext, where);
  }
  return out;
}

/**
 * `convert` applied to each amount of a money field's `value`: the value itself, each item of an
 * array, or the `value` of a promotion rule's stored `{id, value}`; `where` names it for errors.
 */
function eachAmount(value: unknown, where: string, convert: (amount: unknown, where: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v, i) => eachAmount(v, `${where}[${i}]`, convert));
  if (isObject(value))
    return "value" in value ? { ...value, value: eachAmount(value.value, `${where}.value`, convert) } : value;
  return convert(value, where);
}

function amountToMinor(value: unknown, currency: string | undefined, walk: MoneyWalk, where: string): unknown {
  const numeric = typeof value === "number" || (typeof value === "string" && DECIMAL.test(value.trim()));
  // Anything else is left for the schema to refuse with its usual message.
  if (!numeric) return value;
  // Zero is zero in every currency.
  if (Number(value) === 0) return typeof value === "string" ? "0" : 0;
  if (!currency)
    throw errors.invalidData(`${where}: an amount needs its currency (currency_code) to be read in major units`);
  const digits = walk.digits(currency);
  const minor = toMinor(value, digits);
  if (minor === undefined || Math.abs(minor) > MAX_INTEGER.amount) {
    throw errors.invalidData(
      `${where}: ${String(value)} is not an amount in ${currency.toUpperCase()}, which has ${digits} decimal digit${digits === 1 ? "" : "s"}`,
    );
  }
  return typeof value === "string" ? String(minor) : minor;
}

/**
 * Converts every money amount of an answer from minor to major units, as the route's response
 * schema marks them. Returns a new answer (the one given may be shared, e.g. cached).
 * Throws {@link MissingCurrencyError} for an amount with no currency above or beside it.
 */
export function answerToMajor(answer: unknown, schema: unknown, walk: MoneyWalk): unknown {
  return outValue(answer, [schema as Schema], walk, undefined, "");
}

/** An answer's money is not in minor units (a non-integer where the schema marks money). */
export class NotMinorUnitsError extends Error {}

/**
 * Test apps, at the root: every amount an answer's schema marks is an integer (serializers write
 * money as a JSON number, so the schema no longer says so). Throws {@link NotMinorUnitsError}.
 */
export function assertMinorUnits(answer: unknown, schema: unknown): void {
  const check: MoneyWalk = { digits: () => 0 };
  outValue(answer, [schema as Schema], check, undefined, "", true);
}

function outValue(
  value: unknown,
  schemas: Schema[],
  walk: MoneyWalk,
  currency: string | undefined,
  path: string,
  checkOnly = false,
): unknown {
  if (Array.isArray(value)) {
    const items = schemas.flatMap(itemSchemas);
    return items.length === 0
      ? value
      : value.map((item, i) => outValue(item, items, walk, currency, `${path}[${i}]`, checkOnly));
  }
  if (!isObject(value)) return value;
  const props = new Map<string, Schema[]>();
  for (const s of schemas) for (const [k, v] of objectProperties(s)) props.set(k, [...(props.get(k) ?? []), ...v]);
  if (props.size === 0) return value;
  const region = typeof value.region_id === "string" ? value.region_id : undefined;
  const here =
    ownCurrency(value, undefined) ??
    (region && walk.knownRegionCurrency ? walk.knownRegionCurrency(region) || undefined : undefined) ??
    currency;
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(value)) {
    const sub = props.get(key);
    if (!sub || field === null || field === undefined) continue;
    const where = path ? `${path}.${key}` : key;
    const marker = markerOf(sub);
    if (marker) {
      // A conditional amount stored without any currency (a cart-total rule of a promotion that
      // has none) has no exact major units: it is answered as stored rather than failing the read.
      if (applies(marker, value, undefined) && (here || marker === true || checkOnly))
        out[key] = checkOnly
          ? assertIntegers(field, where)
          : eachAmount(field, where, (v, at) => amountToMajor(v, here, walk, at));
      continue;
    }
    out[key] = outValue(field, sub, walk, here, where, checkOnly);
  }
  return out;
}

function assertIntegers(value: unknown, where: string): unknown {
  if (Array.isArray(value)) value.forEach((v, i) => assertIntegers(v, `${where}[${i}]`));
  else if (isObject(value) && "value" in value) assertIntegers(value.value, `${where}.value`);
  else if (typeof value === "number" && !Number.isSafeInteger(value))
    throw new NotMinorUnitsError(`${where}: ${value} is money but not integer minor units`);
  return value;
}

function amountToMajor(value: unknown, currency: string | undefined, walk: MoneyWalk, where: string): unknown {
  const minor =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^-?\d+$/.test(value.trim())
        ? Number(value)
        : undefined;
  if (minor === undefined || !Number.isSafeInteger(minor)) return value;
  if (minor === 0) return value;
  if (!currency) throw new MissingCurrencyError(`${where}: a money amount with no currency_code above or beside it`);
  const major = toMajor(minor, walk.digits(currency));
  return typeof value === "string" ? String(major) : major;
}
