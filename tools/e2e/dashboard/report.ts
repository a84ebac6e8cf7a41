import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ActionResult } from "./actions/run-action";
import type { ErrorPage } from "./allow-list";
import type { ConsoleRecord, RequestRecord } from "./recorder";

export interface PageResult {
  name: string;
  path: string;
  finalPath: string;
  screenshot: string;
  ms: number;
}

/** A request that counts as failed: 4xx/5xx or no answer, unless deliberate. */
export const failed = (r: RequestRecord) => !r.deliberate && (r.status >= 400 || r.status === 0);

/** `ok`: rendered with every request answered; `partial`: rendered, but requests failed or errors were logged; else why not. */
function verdict(
  page: PageResult,
  requests: RequestRecord[],
  consoleErrors: ConsoleRecord[],
  errorPages: ErrorPage[],
): string {
  const error = errorPages.find((p) => p.page === page.name);
  if (error) return `error: ${error.error}`;
  const failures =
    requests.filter((r) => r.page === page.name && failed(r)).length +
    consoleErrors.filter((c) => c.page === page.name).length;
  return failures ? "partial" : "ok";
}

/** The distinct failing requests (method, path, status, message) with the pages that made them. */
function failingRequests(requests: RequestRecord[]) {
  const byKey = new Map<
    string,
    { method: string; path: string; status: number; message: string; pages: Set<string>; count: number }
  >();
  for (const r of requests.filter(failed)) {
    const message = r.message ?? r.failure ?? "";
    const key = `${r.method} ${r.path} ${r.status} ${message}`;
    const entry = byKey.get(key) ?? {
      method: r.method,
      path: r.path,
      status: r.status,
      message,
      pages: new Set(),
      count: 0,
    };
    entry.pages.add(r.page);
    entry.count++;
    byKey.set(key, entry);
  }
  return [...byKey.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Writes `report.json` (everything recorded) and `report.md` (per page, then the failing requests) into `dir`. */
export function writeReport(
  dir: string,
  run: {
    backendPath: string;
    pages: PageResult[];
    actions: ActionResult[];
    requests: RequestRecord[];
    consoleErrors: ConsoleRecord[];
    errorPages: ErrorPage[];
  },
) {
  const distinct = new Set(run.requests.filter((r) => r.kind === "api").map((r) => `${r.method} ${r.path}`));
  const ok = new Set(
    run.requests
      .filter((r) => r.kind === "api" && r.status >= 200 && r.status < 400)
      .map((r) => `${r.method} ${r.path}`),
  );
  const failing = failingRequests(run.requests);
  const lines = [
    `# Medusa's dashboard on Kasse (backend path \`${run.backendPath}\`)`,
    "",
    `${run.pages.length} pages; ${run.requests.filter((r) => r.kind === "api").length} API requests, ${distinct.size} distinct (method + path), ${ok.size} of them answered 2xx/3xx at least once.`,
    "",
    "| page | result | failing requests | console errors | screenshot |",
    "|---|---|---|---|---|",
    ...[{ name: "login", path: "/login", finalPath: "", screenshot: "shots/00-login.png", ms: 0 }, ...run.pages].map(
      (p) => {
        const requests = run.requests.filter((r) => r.page === p.name && failed(r));
        const consoleErrors = run.consoleErrors.filter((c) => c.page === p.name);
        const list = [...new Set(requests.map((r) => `${r.method} ${r.path} ${r.status}`))].join("<br>");
        return `| ${p.name} | ${verdict(p, run.requests, run.consoleErrors, run.errorPages)} | ${list || "–"} | ${consoleErrors.length || "–"} | ${p.screenshot} |`;
      },
    ),
    "",
    "## Actions",
    "",
    "| action | result | screenshots |",
    "|---|---|---|",
    ...run.actions.map(
      (a) =>
        `| ${a.name} | ${a.error ? `failed: ${a.error.replaceAll("|", "\\|").slice(0, 200)}` : "passed"} | ${a.screenshots.join("<br>")} |`,
    ),
    "",
    "## Failing requests",
    "",
    "| method | path | status | message | pages |",
    "|---|---|---|---|---|",
    ...failing.map(
      (f) =>
        `| ${f.method} | \`${f.path}\` | ${f.status} | ${f.message.replaceAll("|", "\\|").slice(0, 160)} | ${[...f.pages].join(", ")} |`,
    ),
    "",
    "## Console errors",
    "",
    ...[
      ...new Set(
        run.consoleErrors.map((c) => `- ${c.page} (${c.source}): ${c.text.replaceAll("\n", " ").slice(0, 300)}`),
      ),
    ],
    "",
  ];
  writeFileSync(join(dir, "report.md"), lines.join("\n"));
  writeFileSync(join(dir, "report.json"), JSON.stringify(run, null, 1));
  return { distinct: distinct.size, ok: ok.size, failing };
}
