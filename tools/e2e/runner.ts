import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page, Request } from "playwright-core";
import { trackStorefrontRequests } from "./browser-requests";
import type { E2eConfig } from "./config";
import type { KasseApi } from "./kasse";
import { formatShown, normalizeText, showsAmount } from "./money";
import type { Exchange, Recorder } from "./recorder";

/** A request a step provokes on purpose, or that the storefront makes by design, answered >= 400. */
export interface Allowance {
  method: string;
  /** Matched against the path after the base path, without the query. */
  path: RegExp;
  status: number;
  /** Only requests without (false) or with (true) a bearer token. */
  authorized?: boolean;
  why: string;
}

/**
 * Answers >= 400 the storefront provokes on every visit by design, as with Medusa: it asks for the
 * signed-in customer to learn whether there is one, and a guest's answer is 401.
 */
export const BY_DESIGN: Allowance[] = [
  {
    method: "GET",
    path: /^\/store\/customers\/me$/,
    status: 401,
    authorized: false,
    why: "guest probe for a signed-in customer",
  },
  // Next renders both parallel slots of /account (@dashboard and @login) and shows one: a guest's dashboard slot still lists orders.
  {
    method: "GET",
    path: /^\/store\/orders$/,
    status: 401,
    authorized: false,
    why: "the account page's dashboard slot, rendered for guests too",
  },
];

/** Whether an exchange answered >= 400 is allowed by `allowances` (matched on the path below the base path). */
function isAllowed(exchange: Exchange, path: string, allowances: Allowance[]): boolean {
  return allowances.some(
    (a) =>
      a.method === exchange.method &&
      a.status === exchange.status &&
      a.path.test(path) &&
      (a.authorized === undefined || a.authorized === exchange.authorized),
  );
}

/** Kasse's refusals among `exchanges`, one line per distinct request and answer, with a count when repeated. */
export function refusals(exchanges: Exchange[], localPath: (e: Exchange) => string, allowances: Allowance[]): string[] {
  const lines = new Map<string, number>();
  for (const exchange of exchanges) {
    if (exchange.status < 400 || isAllowed(exchange, localPath(exchange), allowances)) continue;
    const line =
      `kasse: ${exchange.method} ${exchange.url} → ${exchange.status} (${exchange.from}) ${exchange.responseBody ?? ""}`.trim();
    lines.set(line, (lines.get(line) ?? 0) + 1);
  }
  return [...lines].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}

export interface StepOutcome {
  journey: string;
  step: string;
  status: "passed" | "failed" | "not reached";
  failures: string[];
  screenshot?: string;
  ms: number;
}

/** What a step's body works with. */
export interface StepContext {
  page: Page;
  context: BrowserContext;
  kasse: KasseApi;
  recorder: Recorder;
  config: E2eConfig;
  /** The storefront's address, e.g. http://localhost:41234. */
  shop: string;
  /** Records a failure that does not stop the journey (a wrong amount, a missing row). */
  soft(message: string): void;
  /** Checks that `target` (or the text given) shows `minor` as the storefront would format Kasse's amount. */
  expectAmount(label: string, target: Locator | string, minor: number, currency: string): Promise<void>;
  /** Opens a storefront path and waits for `ready`; a Next.js error page fails the step at once. */
  visit(path: string, ready: Locator | ((page: Page) => Locator)): Promise<void>;
  /** Waits for `ready` or a Next.js error page (on `ready`'s page) after an action that navigates or re-renders. */
  settle(ready: Locator): Promise<void>;
  /**
   * Presses a link or control that navigates on the client (`router.push`) and waits for the URL.
   * Next's client router sometimes drops a navigation (seen under load on the store's sort control,
   * with Kasse's answer already sent): its page request is aborted, or answered and never
   * committed, and the URL stays. The shopper would click again: so does this, at most three
   * times, only when the page request ended and the URL did not follow.
   */
  navigate(target: Locator, url: RegExp): Promise<void>;
  /**
   * Waits until the browser has no request to the storefront in flight: a client navigation
   * (e.g. the `?v_id=` the product page writes) whose answer lands after a server action's would
   * overwrite the action's fresh render with a stale one.
   */
  quiet(): Promise<void>;
  /**
   * Runs `trigger` (a click or submit that calls a Next server action) and waits until the action's
   * answer has arrived. The page applies an action's re-render only sometimes when Next is driven
   * at machine speed (its client router drops it; reproduced with Medusa's unchanged storefront,
   * independent of the backend), so steps then check what Kasse stored and what a fresh render of
   * the page shows, rather than wait for the in-place update.
   */
  action(trigger: () => Promise<void>): Promise<void>;
  /**
   * Clicks `target` once React has hydrated it (its DOM node carries React's fiber): a click on
   * server-rendered markup before hydration has no handler yet and is lost.
   */
  press(target: Locator): Promise<void>;
  /** Screenshots another page of the step (a second shopper's) next to the step's own screenshot. */
  capture(page: Page, name: string): Promise<void>;
}

interface StepOptions {
  /** Answers >= 400 this step provokes on purpose. */
  allow?: Allowance[];
  /** The step starts from its own navigation, so it runs even after an earlier step of the journey failed. */
  fresh?: boolean;
}

/** What a journey's body declares its steps with. */
export interface JourneyApi {
  step(title: string, run: (s: StepContext) => Promise<void>, options?: StepOptions): Promise<void>;
  /** Another browser context (another shopper, no cookies), closed with the journey. */
  newContext(): Promise<BrowserContext>;
}

const ERROR_PAGES = [
  "Application error: a server-side exception",
  "Application error: a client-side exception",
  "Internal Server Error",
  "This page could not be found",
];

/** The Next.js error page's text on `page`, or null. */
async function errorPageText(page: Page): Promise<string | null> {
  for (const text of ERROR_PAGES) {
    const found = page.getByText(text, { exact: false });
    if ((await found.count()) > 0) return normalizeText(await page.locator("body").innerText()).slice(0, 300);
  }
  return null;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
const firstLines = (text: string, n = 4) =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, n)
    .join(" | ");

/** The journeys' runner: steps in order, each checked for error pages, Kasse's answers and amounts, and screenshotted. */
export class Runner {
  readonly outcomes: StepOutcome[] = [];
  private digits = new Map<string, number>();
  /** The browser's requests to the storefront, step by step (written to browser-traffic.txt). */
  readonly browserLog: string[] = [];
  private currentStep = "";
  private journeyIndex = 0;

  constructor(
    private readonly browser: Browser,
    private readonly recorder: Recorder,
    private readonly kasse: KasseApi,
    private readonly config: E2eConfig,
    private readonly shop: string,
    private readonly artifacts: string,
  ) {
    mkdirSync(join(artifacts, "screenshots"), { recursive: true });
  }

  /** Decimal digits of a currency, from Kasse's currency table. */
  async currencyDigits(code: string): Promise<number> {
    const known = this.digits.get(code);
    if (known !== undefined) return known;
    const { currency } = await this.kasse.admin<{ currency: { decimal_digits: number } }>(
      "GET",
      `/admin/currencies/${code}`,
    );
    this.digits.set(code, currency.decimal_digits);
    return currency.decimal_digits;
  }

  /** The path of an exchange below the base path, without its query. */
  localPath(exchange: Exchange): string {
    const path = exchange.url.split("?")[0]!;
    return this.config.basePath && path.startsWith(this.config.basePath)
      ? path.slice(this.config.basePath.length) || "/"
      : path;
  }

  /**
   * Runs one journey in a fresh browser context (no cookies). `body` declares steps with
   * `step()`; once a step fails hard (an exception: an element that never came, an error page),
   * the journey's later steps are reported as not reached.
   */
  async journey(name: string, body: (j: JourneyApi) => Promise<void>): Promise<void> {
    if (this.config.journeys.length && !this.config.journeys.includes(name)) return;
    const index = ++this.journeyIndex;
    const contexts: BrowserContext[] = [];
    const newContext = async () => {
      const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: this.shop });
      context.setDefaultTimeout(this.config.actionTimeoutMs);
      contexts.push(context);
      return context;
    };
    const context = await newContext();
    const page = await context.newPage();
    const requests = trackStorefrontRequests(context, this.shop, this.browserLog, () => this.currentStep);
    const quiet = () => requests.quiet(this.config.actionTimeoutMs);
    const pageProblems: string[] = [];
    page.on("pageerror", (error) => {
      // React's hydration mismatches (#418, #423, #425) come from the storefront's own markup
      // (dates and locale formatting rendered on both sides), not from what Kasse answered.
      if (/Minified React error #(418|423|425)\b/.test(error.message)) return;
      pageProblems.push(`browser exception: ${firstLines(error.message, 2)}`);
    });
    page.on("response", (response) => {
      if (response.request().isNavigationRequest() && response.status() >= 500)
        pageProblems.push(`storefront answered ${response.status()} to ${response.url()}`);
    });
    let broken: string | null = null;
    let stepIndex = 0;

    const step = async (title: string, run: (s: StepContext) => Promise<void>, options: StepOptions = {}) => {
      const label = `${name} › ${title}`;
      stepIndex++;
      if (broken && !options.fresh) {
        this.outcomes.push({
          journey: name,
          step: title,
          status: "not reached",
          failures: [`not reached: ${broken}`],
          ms: 0,
        });
        return;
      }
      const started = performance.now();
      const failures: string[] = [];
      const from = this.recorder.exchanges.length;
      const screenshotBase = join(
        this.artifacts,
        "screenshots",
        `${String(index).padStart(2, "0")}-${slug(name)}-${String(stepIndex).padStart(2, "0")}-${slug(title)}`,
      );
      this.recorder.mark(label);
      this.currentStep = label;
      pageProblems.length = 0;
      const s: StepContext = {
        page,
        context,
        kasse: this.kasse,
        recorder: this.recorder,
        config: this.config,
        shop: this.shop,
        soft: (message) => failures.push(message),
        expectAmount: async (what, target, minor, currency) => {
          const expected = formatShown(minor, currency, await this.currencyDigits(currency), this.config.basePath);
          const text = typeof target === "string" ? target : await target.innerText();
          if (!showsAmount(text, expected))
            failures.push(
              `amount: ${what} shows "${normalizeText(text)}", Kasse computed ${minor} ${currency} (minor units), shown through ${this.config.basePath || "the root"} as ${expected}`,
            );
        },
        visit: async (path, ready) => {
          const response = await page.goto(path);
          if (response && response.status() >= 500)
            throw new Error(`GET ${path} answered ${response.status()}: ${await errorPageText(page)}`);
          await s.settle(typeof ready === "function" ? ready(page) : ready);
        },
        settle: async (ready) => {
          const on = ready.page();
          const error = on.getByText(
            /Application error: a (server|client)-side exception|This page could not be found|Internal Server Error/,
          );
          await ready.or(error).first().waitFor({ state: "visible" });
          const text = await errorPageText(on);
          if (text) throw new Error(`Next.js error page at ${new URL(on.url()).pathname}: ${text}`);
          await quiet();
        },
        quiet,
        navigate: async (target, url) => {
          for (let attempt = 1; ; attempt++) {
            // The navigation's page request (an RSC fetch, not a prefetch) ends, answered or aborted.
            const isPageRequest = (r: Request) => r.url().includes("_rsc=") && !r.headers()["next-router-prefetch"];
            const ended = Promise.race([
              page.waitForEvent("requestfinished", { predicate: isPageRequest, timeout: this.config.actionTimeoutMs }),
              page.waitForEvent("requestfailed", { predicate: isPageRequest, timeout: this.config.actionTimeoutMs }),
            ]).then(() => "ended" as const);
            ended.catch(() => undefined);
            await s.press(target);
            if ((await Promise.race([page.waitForURL(url).then(() => "arrived" as const), ended])) === "arrived")
              return;
            // The router commits the URL after its request ended; a dropped navigation never does.
            await quiet();
            if (
              await page.waitForURL(url, { timeout: this.config.actionTimeoutMs / 4 }).then(
                () => true,
                () => false,
              )
            )
              return;
            if (attempt === 3)
              throw new Error(`${target} never led to ${url}: the storefront dropped the navigation ${attempt} times`);
          }
        },
        press: async (target) => {
          const deadline = Date.now() + this.config.actionTimeoutMs;
          // Resolved afresh each time: a streamed Suspense boundary replaces its placeholder's nodes.
          while (
            !(await target.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactFiber$")), undefined, {
              timeout: this.config.actionTimeoutMs,
            }))
          ) {
            if (Date.now() > deadline) throw new Error(`${target} was never hydrated by React`);
            await target.page().waitForTimeout(50);
          }
          await target.click();
        },
        action: async (trigger) => {
          const answered = page.waitForResponse(
            (r) => r.url().startsWith(this.shop) && !!r.request().headers()["next-action"],
          );
          await trigger();
          const response = await answered;
          // The body is streamed: the answer is complete when the request finished (or the page dropped it).
          await Promise.race([
            response.finished(),
            page.waitForEvent("requestfailed", (r) => r === response.request()),
          ]);
          await quiet();
        },
        capture: async (other, name) => {
          await other
            .screenshot({ path: `${screenshotBase}-${slug(name)}.png`, fullPage: true })
            .catch((error: Error) => failures.push(`screenshot failed: ${firstLines(error.message, 1)}`));
        },
      };
      try {
        await run(s);
      } catch (error) {
        const message = firstLines(error instanceof Error ? error.message : String(error));
        failures.unshift(message);
        broken = `"${title}" failed`;
      }
      // Let the step's requests finish, so that each is judged in the step that caused it.
      await quiet().catch((error: Error) => failures.push(error.message));
      await this.recorder.idle(this.config.actionTimeoutMs).catch((error: Error) => failures.push(error.message));
      const errorPage = await errorPageText(page).catch(() => null);
      if (errorPage && !failures.some((f) => f.includes("error page"))) {
        failures.push(`Next.js error page at ${new URL(page.url()).pathname}: ${errorPage}`);
        broken ??= `"${title}" ended on an error page`;
      }
      failures.push(...pageProblems);
      const mine = this.recorder.exchanges.slice(from).filter((e) => e.step === label);
      failures.push(...refusals(mine, (e) => this.localPath(e), [...BY_DESIGN, ...(options.allow ?? [])]));
      const screenshot = `${screenshotBase}.png`;
      await page
        .screenshot({ path: screenshot, fullPage: true })
        .catch((error: Error) => failures.push(`screenshot failed: ${firstLines(error.message, 1)}`));
      const ms = Math.round(performance.now() - started);
      this.outcomes.push({
        journey: name,
        step: title,
        status: failures.length ? "failed" : "passed",
        failures,
        screenshot,
        ms,
      });
      console.log(
        `  ${failures.length ? "✗" : "✓"} ${label} (${ms} ms)${failures.map((f) => `\n      ${f}`).join("")}`,
      );
    };

    console.log(`\n${name}`);
    try {
      await body({ step, newContext });
    } catch (error) {
      // A journey's own code failing outside a step is a harness bug: report it on the journey.
      this.outcomes.push({
        journey: name,
        step: "(journey)",
        status: "failed",
        failures: [`harness error: ${error instanceof Error ? error.stack : String(error)}`],
        ms: 0,
      });
    } finally {
      for (const c of contexts) await c.close().catch(() => undefined);
    }
  }
}
