// Drives Medusa's admin dashboard, as Kasse serves it at /app, in headless Chromium: builds the
// dashboard (cached), starts a fresh embedded Kasse, seeds a week of store activity, logs in through
// the dashboard's form, opens the survey's 20 pages, takes a screenshot of each, and records every
// request to Kasse, console error and error page. Exits non-zero on any failure the allow-list
// does not name. Usage: npx tsx tools/e2e/dashboard/run.ts [--backend-path /medusa] [--allow-list file] [--out dir]
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { buildAdmin, normalizeBackendPath } from "@kasse/admin";
import { dashboardActions } from "./actions";
import { runAction, type ActionResult } from "./actions/run-action";
import { adminApi } from "./api";
import { judge, loadAllowList, type ErrorPage } from "./allow-list";
import { startKasse, type RunningKasse } from "./kasse";
import { surveyPages } from "./pages";
import { createRecorder, type Recorder } from "./recorder";
import { failed, writeReport, type PageResult } from "./report";
import { seedStore } from "./seed";
import { settle } from "./ui";

const here = import.meta.dirname;
const { values } = parseArgs({
  options: {
    "backend-path": { type: "string", default: process.env.MEDUSA_BASE_PATH ?? "/medusa" },
    "allow-list": { type: "string", default: join(here, "allow-list.json") },
    out: { type: "string", default: join(here, "out") },
    // Only these actions (comma-separated names); "none" skips them all.
    actions: { type: "string" },
    // Skip the page survey (when working on an action).
    "no-pages": { type: "boolean", default: false },
  },
});
const backendPath = normalizeBackendPath(values["backend-path"]);
const out = resolve(values.out);
const shots = join(out, "shots");
rmSync(out, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });

/** The dashboard's error boundary titles (en), and its not-found route. */
const ERROR_PAGE =
  /400 - Bad request|404 - There is no page at this address|500 - Internal server error|An error occurred|An unexpected error occurred while rendering this page/;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // Only Kasse is reachable here: other hosts (the flag icons' CDN) fail at once instead of waiting on DNS.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
console.log(`Building the dashboard for backend path ${backendPath} (cached by its inputs) ...`);
const build = await buildAdmin({ backendPath });
console.log(build.built ? `  built in ${(build.ms / 1000).toFixed(0)} s` : "  already built");

const admin = {
  email: process.env.KASSE_ADMIN_EMAIL ?? "e2e-admin@example.com",
  password: process.env.KASSE_ADMIN_PASSWORD ?? randomBytes(12).toString("base64url"),
};
const kasse = await startKasse({ admin, backendPath, logFile: join(out, "kasse.log") });
let exitCode = 1;
try {
  console.log(`Kasse at ${kasse.origin} (${elapsed()}); seeding ...`);
  const seeded = await seedStore(kasse);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    const recorder = createRecorder(page, kasse.origin, backendPath);
    const errorPages: ErrorPage[] = [];

    const loginError = await logIn(page, kasse, recorder);
    if (loginError) errorPages.push({ page: "login", error: loginError });
    console.log(`login: ${loginError ?? "ok"} (${elapsed()})`);

    const pages: PageResult[] = [];
    for (const [i, target] of (values["no-pages"] ? [] : surveyPages(seeded)).entries()) {
      recorder.setPage(target.name);
      const started = Date.now();
      await page.goto(`${kasse.origin}/app${target.path}`, { waitUntil: "domcontentloaded" });
      await settle(page);
      const finalPath = new URL(page.url()).pathname;
      const screenshot = `shots/${String(i + 1).padStart(2, "0")}-${target.name}.png`;
      await page.screenshot({ path: join(out, screenshot) });
      const text = await page
        .locator("body")
        .innerText()
        .catch(() => "");
      const shown = ERROR_PAGE.exec(text)?.[0];
      if (finalPath === "/app/login") errorPages.push({ page: target.name, error: "sent back to the login form" });
      else if (shown) errorPages.push({ page: target.name, error: shown });
      pages.push({ name: target.name, path: target.path, finalPath, screenshot, ms: Date.now() - started });
      const failures = recorder.requests.filter((r) => r.page === target.name && failed(r)).length;
      console.log(
        `${target.name}: ${shown ?? (finalPath === "/app/login" ? "login form" : "rendered")}, ${failures} failing requests (${Date.now() - started} ms)`,
      );
    }
    const api = await adminApi(kasse);
    const only = values.actions?.split(",");
    const actions: ActionResult[] = [];
    for (const action of dashboardActions.filter((a) => !only || only.includes(a.name))) {
      recorder.setPage(`action:${action.name}`);
      const result = await runAction(action, { page, kasse, api, seeded, shots });
      actions.push(result);
      console.log(`action ${action.name}: ${result.error ? `FAILED: ${result.error}` : "passed"} (${result.ms} ms)`);
    }
    // Let the last responses' handlers finish reading their bodies.
    await page.waitForTimeout(500);
    await context.close();

    const run = {
      backendPath,
      pages,
      actions,
      requests: recorder.requests,
      consoleErrors: recorder.consoleErrors,
      errorPages,
    };
    const summary = writeReport(out, run);
    const verdict = judge(loadAllowList(values["allow-list"]), {
      requests: run.requests.filter(failed),
      consoleErrors: run.consoleErrors,
      errorPages,
    });
    console.log(
      `\n${summary.distinct} distinct API requests, ${summary.ok} answered 2xx/3xx; ${summary.failing.length} distinct failing; ${recorder.external()} requests to other hosts ignored.`,
    );
    console.log(`Report: ${join(out, "report.md")}; screenshots in ${shots}`);
    for (const r of dedupe(
      verdict.requests.map(
        (r) => `request ${r.method} ${r.path} → ${r.status} ${r.message ?? r.failure ?? ""} (${r.page})`,
      ),
    ))
      console.log(`  NOT ALLOWED ${r}`);
    for (const c of dedupe(
      verdict.consoleErrors.map((c) => `console ${c.source} on ${c.page}: ${c.text.slice(0, 200)}`),
    ))
      console.log(`  NOT ALLOWED ${c}`);
    for (const p of verdict.errorPages) console.log(`  NOT ALLOWED error page on ${p.page}: ${p.error}`);
    for (const entry of verdict.unused)
      console.log(`  allow-list entry no longer needed (remove it): ${JSON.stringify(entry)}`);
    const failedActions = actions.filter((a) => a.error);
    for (const a of failedActions) console.log(`  FAILED action ${a.name}: ${a.error}`);
    const bad =
      verdict.requests.length + verdict.consoleErrors.length + verdict.errorPages.length + failedActions.length;
    console.log(bad ? `FAILED: ${bad} failures not in the allow-list (${elapsed()})` : `PASSED (${elapsed()})`);
    exitCode = bad ? 1 : 0;
  } finally {
    await browser.close();
  }
} finally {
  await kasse.stop();
}
process.exit(exitCode);

/**
 * Signs in through the dashboard's login form. When the form cannot sign in (today Kasse lacks
 * what it needs), the token is placed where the dashboard keeps it so the pages can still be
 * surveyed; the login counts as an error page either way. Returns the error, or undefined.
 */
async function logIn(page: Page, kasse: RunningKasse, recorder: Recorder): Promise<string | undefined> {
  recorder.setPage("login");
  await page.goto(`${kasse.origin}/app/login`, { waitUntil: "domcontentloaded" });
  await settle(page);
  await page.screenshot({ path: join(shots, "00-login.png") });
  let error: string | undefined;
  const email = page.locator('input[name="email"]');
  if (await email.isVisible().catch(() => false)) {
    await email.fill(kasse.admin.email);
    await page.locator('input[name="password"]').fill(kasse.admin.password);
    await page.locator('button[type="submit"]').click();
    const left = await page
      .waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 20_000 })
      .then(
        () => true,
        () => false,
      );
    if (!left) error = "the login form did not sign in";
  } else {
    error = "the login form did not appear";
  }
  await settle(page);
  await page.screenshot({ path: join(shots, "00-after-login.png") });
  if (error) {
    const base = backendPath === "/" ? "" : backendPath;
    const res = await fetch(`${kasse.origin}${base}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(kasse.admin),
    });
    const token = res.ok ? ((await res.json()) as { token?: string }).token : undefined;
    // The js-sdk's jwt storage: localStorage under its default key (the build sets no other).
    if (token)
      await page.evaluate(
        (value) =>
          (
            globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }
          ).localStorage.setItem("medusa_auth_token", value),
        token,
      );
    else error += `; and POST ${base}/auth/user/emailpass answered ${res.status}`;
  }
  recorder.signedIn();
  return error;
}

function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}
