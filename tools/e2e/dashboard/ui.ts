import type { Page } from "playwright-core";

/** How long a form's request and the dashboard's answer to it may take on a busy 2-core machine. */
const TIMEOUT = 20_000;

/** Waits until the page's requests are done and React has painted. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(1000);
}

/** Opens a dashboard route (a form's own URL, as its button links to it) and waits for it to load. */
export async function open(page: Page, origin: string, path: string): Promise<void> {
  await page.goto(`${origin}/app${path}`, { waitUntil: "domcontentloaded" });
  await settle(page);
}

/** Types into the form field react-hook-form registered under `name` (the input's name attribute). */
export async function fill(page: Page, name: string, value: string): Promise<void> {
  const field = page.locator(`[name="${name}"]`).last();
  await field.waitFor({ state: "visible", timeout: TIMEOUT });
  await field.fill(value);
}

/** Clicks the visible button whose accessible name is exactly `name` (the last one: a modal's over the page's). */
export async function click(page: Page, name: string | RegExp): Promise<void> {
  const button = page
    .getByRole("button", { name, exact: typeof name === "string" })
    .filter({ visible: true })
    .last();
  await button.waitFor({ state: "visible", timeout: TIMEOUT });
  await button.click();
}

/** Clicks the menu item (a row's or a section's action menu) named `name`. */
export async function clickMenuItem(page: Page, name: string | RegExp): Promise<void> {
  const item = page.getByRole("menuitem", { name, exact: typeof name === "string" }).last();
  await item.waitFor({ state: "visible", timeout: TIMEOUT });
  await item.click();
}

/**
 * Waits for the dashboard's toast after a submit and returns its text; an error toast (the
 * dashboard shows the API's message in it) rejects with that message.
 */
export async function toast(page: Page): Promise<string> {
  const next = page.locator("[data-sonner-toast]:not([data-kasse-seen])").last();
  await next.waitFor({ state: "visible", timeout: TIMEOUT });
  const shown = (await next.elementHandle())!;
  // Marked, so that the next call waits for the next toast rather than reading this one again.
  await shown.evaluate((element) => element.setAttribute("data-kasse-seen", ""));
  const text = (await shown.innerText()).replace(/\s+/g, " ").trim();
  if (await shown.$(".text-ui-tag-red-icon")) throw new Error(`the dashboard showed an error: ${text}`);
  return text;
}

/** Waits until the browser is on a dashboard path matching `pattern` (a form closes onto its record). */
export async function landedOn(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForURL((url) => pattern.test(url.pathname), { timeout: TIMEOUT });
  await settle(page);
  return new URL(page.url()).pathname;
}
