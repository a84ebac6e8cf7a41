/**
 * Integer money arithmetic of the engine. Percentages are held exactly as parts per
 * 100 000 000 (a percent with up to six decimals), products are computed in BigInt so no
 * float ever touches an amount.
 */

const PERCENT_SCALE = 1_000_000n; // six decimals of a percent
const WHOLE = 100n * PERCENT_SCALE;

/**
 * `percent` % of `amount` (minor units), rounded half up (0.5 → 1): the one rounding rule for
 * percentages. A percent is honoured to six decimals.
 * @example percentOf(999, 10) // 100 (99.9 rounds up)
 */
export function percentOf(amount: number, percent: number): number {
  const scaled = BigInt(Math.round(percent * Number(PERCENT_SCALE)));
  const product = BigInt(amount) * scaled;
  const quotient = product / WHOLE;
  const remainder = product % WHOLE;
  return Number(remainder * 2n >= WHOLE ? quotient + 1n : quotient);
}

/**
 * Splits `total` over `weights` in proportion (largest-remainder method): each part is
 * floor(total × weight / Σweights), then the units left over go one each to the parts with the
 * largest remainders (ties to the earlier part). The parts sum to `total` exactly and none exceeds
 * its weight when `total` ≤ Σweights.
 * @example allocate(100, [1, 1, 1]) // [34, 33, 33]
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  if (sum === 0n || total === 0) return weights.map(() => 0);
  const big = BigInt(total);
  const parts = weights.map((w) => (big * BigInt(w)) / sum);
  const remainders = weights.map((w, index) => ({ index, remainder: (big * BigInt(w)) % sum }));
  let left = big - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    parts[index]! += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
