import type { Page, Request, Response } from "playwright-core";

/** One request the dashboard made to Kasse. */
export interface RequestRecord {
  page: string;
  method: string;
  /** API requests: the path below the backend path (`/admin/orders/:id`, ids replaced); assets: the /app path. */
  path: string;
  query: string;
  kind: "api" | "asset";
  /** HTTP status, or 0 when the request never got an answer (`failure` says why). */
  status: number;
  type?: string;
  message?: string;
  failure?: string;
  /** Refused on purpose by design, not a defect: the 401 of `GET /admin/users/me` that sends a signed-out browser to the login form. */
  deliberate?: boolean;
}

export interface ConsoleRecord {
  page: string;
  source: "console" | "pageerror";
  text: string;
  url?: string;
}

/** Kasse's ids (`order_01JD…`, `cus_…`) become `:id` so one allow-list entry covers every record. */
function normalizePath(path: string): string {
  return path
    .split("/")
    .map((segment) => (/^[a-z]+(?:_[a-z]+)*_[0-9A-Z]{20,}$/.test(segment) ? ":id" : segment))
    .join("/");
}

/**
 * Records, per dashboard page, every request to Kasse with its status and error message, and every
 * console error and uncaught exception. Requests to other hosts (the flag icons' CDN) are not Kasse's
 * and are only counted.
 */
export function createRecorder(page: Page, origin: string, backendPath: string) {
  const requests: RequestRecord[] = [];
  const consoleErrors: ConsoleRecord[] = [];
  const prefix = backendPath === "/" ? "" : backendPath;
  let current = "boot";
  let signedOut = true;
  let external = 0;

  const describe = (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== origin) return null;
    const asset = url.pathname === "/app" || url.pathname.startsWith("/app/");
    const apiPath = prefix && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
    return {
      method: request.method(),
      path: normalizePath(asset ? url.pathname : apiPath),
      query: url.search,
      kind: asset ? ("asset" as const) : ("api" as const),
    };
  };

  page.on("response", async (response: Response) => {
    const request = response.request();
    const described = describe(request);
    if (!described) return;
    const record: RequestRecord = { page: current, ...described, status: response.status() };
    if (record.status >= 400) {
      const body = await response.text().catch(() => "");
      try {
        const parsed = JSON.parse(body) as { type?: string; message?: string };
        record.type = parsed.type;
        record.message = parsed.message;
      } catch {
        record.message = body.slice(0, 200);
      }
      if (signedOut && record.status === 401 && record.method === "GET" && record.path === "/admin/users/me")
        record.deliberate = true;
    }
    requests.push(record);
  });
  page.on("requestfailed", (request: Request) => {
    const described = describe(request);
    if (!described) {
      external++;
      return;
    }
    const failure = request.failure()?.errorText ?? "failed";
    // Leaving a page cancels its requests still in flight: the browser's doing, not Kasse's.
    requests.push({ page: current, ...described, status: 0, failure, deliberate: failure === "net::ERR_ABORTED" });
  });
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const url = message.location().url;
    if (url && !url.startsWith(origin)) {
      external++;
      return;
    }
    // The browser's own line for a failed response duplicates the request record above.
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text())) return;
    consoleErrors.push({ page: current, source: "console", text: message.text().slice(0, 500), url });
  });
  page.on("pageerror", (error) =>
    consoleErrors.push({ page: current, source: "pageerror", text: String(error).slice(0, 500) }),
  );

  return {
    requests,
    consoleErrors,
    /** Requests to other origins and console errors about them (not Kasse's). */
    external: () => external,
    setPage(name: string) {
      current = name;
    },
    /** After the login, a 401 on the session check is a failure like any other. */
    signedIn() {
      signedOut = false;
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
