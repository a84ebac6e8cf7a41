import { Type } from "@sinclair/typebox";
import type { App } from "../../app-type";
import { Answer, NoFields } from "../../http/schemas";

const LocaleView = Type.Object({ code: Type.String(), name: Type.String() }, { additionalProperties: false });

/** The configured `STORE_LOCALES` with their English names (`de-DE` → "German (Germany)"). */
export function storeLocales(configured: string): Array<{ code: string; name: string }> {
  const codes = [
    ...new Set(
      configured
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ];
  if (codes.length === 0) return [];
  // Loading the language names is about 30 ms of CPU (ICU data): not for the default, no locales.
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  return codes.map((code) => ({ code, name: names.of(code) ?? code }));
}

/**
 * Store locales (Medusa's `GET /store/locales`): the languages the store offers, from
 * `STORE_LOCALES` (none by default). A storefront shows a language picker when there are some and
 * sends the choice as the cart's `locale`. Kasse stores it; it translates no catalog content.
 */
export default async function locales(app: App): Promise<void> {
  const configured = storeLocales(app.config.env.STORE_LOCALES);
  app.get(
    "/locales",
    { schema: { querystring: NoFields, response: Answer("locales", Type.Array(LocaleView)) } },
    async () => ({ locales: configured }),
  );
}
