import { errors } from "@kasse/core";

/** Stripe's zero-decimal currencies (https://docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);
/** Stripe's three-decimal currencies, whose amounts it takes in multiples of 10. */
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

const stripeDigits = (currency: string) => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);

/** Kasse's minor unit: the currency's digits in the runtime's Intl data, which the `currency` table was seeded from. */
const kasseDigits = (currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;

/**
 * Kasse's minor units as Stripe's: they differ where Stripe keeps decimals the currency has stopped
 * using (HUF, ISK: Stripe counts hundredths, Kasse whole units). An amount Stripe cannot take
 * exactly is `invalid_data`, never rounded.
 */
export function toStripeAmount(amount: number, currencyCode: string): number {
  const currency = currencyCode.toLowerCase();
  const shift = stripeDigits(currency) - kasseDigits(currency);
  const stripe = shift >= 0 ? amount * 10 ** shift : amount / 10 ** -shift;
  if (!Number.isSafeInteger(stripe) || (THREE_DECIMAL.has(currency) && stripe % 10 !== 0))
    throw errors.invalidData(`Stripe cannot take ${amount} in ${currency.toUpperCase()} minor units exactly`);
  return stripe;
}

/** Stripe's amount in Kasse's minor units (the inverse of {@link toStripeAmount}); a fraction is `invalid_data`. */
export function fromStripeAmount(amount: number, currencyCode: string): number {
  const currency = currencyCode.toLowerCase();
  const shift = stripeDigits(currency) - kasseDigits(currency);
  const kasse = shift >= 0 ? amount / 10 ** shift : amount * 10 ** -shift;
  if (!Number.isSafeInteger(kasse))
    throw errors.invalidData(`Stripe's ${amount} in ${currency.toUpperCase()} is no whole Kasse amount`);
  return kasse;
}
