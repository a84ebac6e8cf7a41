import { readFileSync } from "node:fs";
import type { ConsoleRecord, RequestRecord } from "./recorder";

/**
 * Known failures a later step fixes. Each entry says why; an entry matches when every field it
 * gives matches (`page` "*" or absent = any page; `path` may end in `*`; `match` is a regular
 * expression). Remove an entry once the backend catches up: the run lists entries nothing matched.
 */
export interface AllowList {
  requests: Array<{ method: string; path: string; status?: number; page?: string; why: string }>;
  consoleErrors: Array<{ match: string; page?: string; why: string }>;
  errorPages: Array<{ page: string; match?: string; why: string }>;
}

/** A page that showed the dashboard's error page, sent the browser back to the login form, or (the login) did not sign in. */
export interface ErrorPage {
  page: string;
  error: string;
}

/** Reads the allow-list file. */
export function loadAllowList(file: string): AllowList {
  const list = JSON.parse(readFileSync(file, "utf8")) as Partial<AllowList>;
  return { requests: list.requests ?? [], consoleErrors: list.consoleErrors ?? [], errorPages: list.errorPages ?? [] };
}

const onPage = (entry: { page?: string }, page: string) => !entry.page || entry.page === "*" || entry.page === page;
const pathMatches = (pattern: string, path: string) =>
  pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;

/** Splits the run's failures into those the allow-list covers and those it does not, and finds its entries nothing matched. */
export function judge(
  list: AllowList,
  failures: { requests: RequestRecord[]; consoleErrors: ConsoleRecord[]; errorPages: ErrorPage[] },
) {
  const used = new Set<object>();
  const find = <T extends object>(entries: T[], test: (entry: T) => boolean) => {
    const entry = entries.find(test);
    if (entry) used.add(entry);
    return entry !== undefined;
  };
  const requests = failures.requests.filter(
    (r) =>
      !find(
        list.requests,
        (e) =>
          e.method === r.method &&
          pathMatches(e.path, r.path) &&
          (e.status === undefined || e.status === r.status) &&
          onPage(e, r.page),
      ),
  );
  const consoleErrors = failures.consoleErrors.filter(
    (c) => !find(list.consoleErrors, (e) => new RegExp(e.match).test(c.text) && onPage(e, c.page)),
  );
  const errorPages = failures.errorPages.filter(
    (p) => !find(list.errorPages, (e) => e.page === p.page && (!e.match || new RegExp(e.match).test(p.error))),
  );
  const unused = [...list.requests, ...list.consoleErrors, ...list.errorPages].filter((entry) => !used.has(entry));
  return { requests, consoleErrors, errorPages, unused };
}
