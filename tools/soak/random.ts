/** One of `items`, uniformly. */
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** One key of `weights`, with probability proportional to its weight. */
export function weighted<K extends string>(weights: Record<K, number>): K {
  const entries = Object.entries(weights) as Array<[K, number]>;
  let roll = Math.random() * entries.reduce((n, [, w]) => n + w, 0);
  for (const [key, weight] of entries) if ((roll -= weight) < 0) return key;
  return entries[0]![0];
}
