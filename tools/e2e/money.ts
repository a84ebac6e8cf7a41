/**
 * An amount in integer minor units as a decimal string in major units, exactly (no float):
 * (5900, 2) → "59.00", (1500, 0) → "1500", (12345, 3) → "12.345", (-5, 2) → "-0.05".
 */
export function minorToDecimal(minor: number, digits: number): string {
  if (!Number.isInteger(minor)) throw new Error(`not an integer amount in minor units: ${minor}`);
  const sign = minor < 0 ? "-" : "";
  const units = String(Math.abs(minor)).padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${units}` : `${sign}${units.slice(0, -digits)}.${units.slice(-digits)}`;
}

/**
 * How the storefront shows an amount (its `convertToLocale`: `Intl.NumberFormat("en-US",
 * {style: "currency"})`) when Kasse computed `minor` in `currency`, whose decimal digits come from
 * Kasse's currency table. Intl formats the decimal string itself, so no float rounding creeps in.
 */
export function formatMinor(minor: number, currency: string, digits: number): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  // Spaces normalized as on-screen text is (Intl puts a no-break space after "KWD").
  return normalizeText(format.format(minorToDecimal(minor, digits) as unknown as number));
}

/**
 * What the storefront shows for an amount Kasse computed as `minor`, given where it reads Kasse:
 * Medusa's dialect (`/medusa`) sends major units, which the storefront formats ({@link formatMinor});
 * the contract at the root sends integer minor units, which the storefront formats as they are
 * (it takes every amount for major units), so 5900 cents show as "$5,900.00".
 */
export function formatShown(minor: number, currency: string, digits: number, basePath: string): string {
  if (basePath !== "") return formatMinor(minor, currency, digits);
  if (!Number.isInteger(minor)) throw new Error(`not an integer amount in minor units: ${minor}`);
  return normalizeText(
    new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(minor),
  );
}

/** Whitespace as one plain space (Intl uses no-break spaces in some locales). */
export const normalizeText = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Whether `text` shows `expected` as a whole amount: "$59.00" is in "Total $59.00" and in
 * "- $59.00", but not in "$59.001" or "$159.00".
 */
export function showsAmount(text: string, expected: string): boolean {
  const haystack = normalizeText(text);
  for (let at = haystack.indexOf(expected); at !== -1; at = haystack.indexOf(expected, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + expected.length];
    if ((before === undefined || !/[\d.,]/.test(before)) && (after === undefined || !/\d/.test(after))) return true;
  }
  return false;
}
