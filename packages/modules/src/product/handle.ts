import { MAX_LENGTH } from "@kasse/core";

/** Room left at the end of a generated handle for the `-n` that makes it unique (up to `-9999999`). */
const SUFFIX_ROOM = 8;

/**
 * A URL handle from a title: lower-case ASCII letters and digits joined by single hyphens
 * (accents are folded: "Crème Brûlée" → "creme-brulee", "ß" → "ss"). Empty when nothing usable remains.
 * Folding can lengthen a title ("ß" → "ss", "ﬃ" → "ffi"), so the handle is cut to fit the handle
 * limit with room for a `-n` suffix.
 */
export function toHandle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_LENGTH.handle - SUFFIX_ROOM)
    .replace(/^-+|-+$/g, "");
}

/**
 * A free handle for `title` among the live handles `handlesLike` finds: `base`, then `base-1`,
 * `base-2`, ... (`fallback` is the base of a title without one).
 */
export async function generatedHandle(
  handlesLike: (v: { base: string; pattern: string }) => Promise<Array<{ handle: string }>>,
  title: string,
  fallback: string,
): Promise<string> {
  const base = toHandle(title) || fallback;
  const used = new Set((await handlesLike({ base, pattern: `${base}-%` })).map((r) => r.handle));
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
