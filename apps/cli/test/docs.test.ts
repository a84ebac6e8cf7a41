import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EnvSchema } from "@kasse/runtime";
import { useRouteWalk } from "@kasse/api/testing";
import { envTable } from "../src/env-help";
import { helpText } from "../src/help";

// The README and docs/ name settings, routes and commands; these tests fail when one of them is
// not the code's, so the docs cannot drift from what Kasse has.

const root = fileURLToPath(new URL("../../..", import.meta.url));
const docFiles = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (file: string): string => readFileSync(join(root, file), "utf8");
/** A file's text without its fenced code blocks' fences (their content stays: commands and routes count too). */
const docs = docFiles.map((file) => ({ file, text: read(file) }));
const withoutCode = (text: string): string => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

/** Upper-case names the docs use that are not Kasse's configuration: code identifiers and scripts' variables, each found in the sources. */
const inSources = [
  "ADMIN_EMAIL",
  "ADMIN_PASSWORD",
  "CART_TABLES",
  "CATALOG_TABLES",
  "CREDIT_LINE_ADD",
  "DEFAULT_LEASE_MS",
  "FUZZ_BUDGET_MS",
  "FUZZ_OPS",
  "FUZZ_REPORT",
  "FUZZ_RUNS",
  "FUZZ_SEED",
  "HTTP_ERRORS",
  "ITEM_ADD",
  "ITEM_UPDATE",
  "KASSE_BENCH_DIR",
  "KASSE_BENCH_NODE_ARGS",
  "KASSE_BENCH_PORT",
  "KASSE_URL",
  "MAX_AMOUNT",
  "PGLITE_SHARED_BUFFERS",
  "PROMOTION_ADD",
  "PROMOTION_REMOVE",
  "RECEIVE_DAMAGED_RETURN_ITEM",
  "RECEIVE_RETURN_ITEM",
  "RETURN_ITEM",
  "SHIPPING_ADD",
  "SHIPPING_REMOVE",
  "WRITE_OFF_ITEM",
];
/** ... and other programs' settings (Node, Medusa's storefront, psql, a webhook receiver's example). */
const otherPrograms = [
  "NODE_OPTIONS",
  "NEXT_PUBLIC_MEDUSA_BACKEND_URL",
  "NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY",
  "NEXT_PUBLIC_DEFAULT_REGION",
  "ON_ERROR_STOP",
  "KASSE_WEBHOOK_SECRET",
  "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED",
];
/** Routes registered only with REDIS_URL set (the route walk runs without Redis): bull-board's pages. */
const onlyWithRedis = ["/admin/queues"];

describe("the configuration table (docs/configuration.md)", () => {
  const rows = [...read("docs/configuration.md").matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)];
  const schema = Object.keys(EnvSchema.properties);

  it("documents every variable of the configuration schema once, and nothing else", () => {
    const documented = rows.map((r) => r[1]);
    expect(new Set(documented).size, "a variable documented twice").toBe(documented.length);
    expect([...documented].sort()).toEqual([...schema].sort());
    expect(envTable().map((r) => r.name)).toEqual(schema);
  });

  it("gives each variable the schema's default", () => {
    const defaults = new Map(envTable().map((r) => [r.name, r.default]));
    for (const [, name, shown] of rows) {
      const def = defaults.get(name!);
      if (def) expect(shown!.trim(), name).toBe(`\`${def}\``);
    }
  });

  it("is the only table of variables: no other doc has a row for one", () => {
    for (const { file, text } of docs.filter((d) => d.file !== "docs/configuration.md"))
      for (const name of schema) expect(text, `${file} tabulates ${name}`).not.toContain(`| \`${name}\` |`);
  });
});

describe("names in the docs", () => {
  it("every UPPER_CASE setting is a configuration variable, a name in the sources or another program's", () => {
    const schema = new Set(Object.keys(EnvSchema.properties));
    const known = new Set([...schema, ...inSources, ...otherPrograms]);
    for (const { file, text } of docs)
      for (const [name] of text.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/g))
        expect(known.has(name), `${file} names ${name}, which Kasse does not have`).toBe(true);
    const pattern = inSources.join("|");
    const found = execFileSync("git", ["grep", "--untracked", "-h", "-o", "-w", "-E", pattern, "--", ".", ":!*.md"], {
      cwd: root,
      encoding: "utf8",
    });
    const inCode = new Set(found.split("\n"));
    for (const name of inSources) expect(inCode.has(name), `${name} is in no source file`).toBe(true);
  });

  it("every `kasse <command>` is a command of the CLI", () => {
    const commands = helpText()
      .split("\n")
      .filter((line) => /^ {2}[a-z]/.test(line))
      .map((line) => line.trim().split(/\s+/))
      .filter((words) => !/^[A-Z]/.test(words[0]!));
    const first = new Set(commands.map((w) => w[0]));
    const pairs = new Set(commands.filter((w) => w[1] && !w[1].startsWith("-")).map((w) => `${w[0]} ${w[1]}`));
    for (const { file, text } of docs)
      for (const [, word, next] of text.matchAll(/\bkasse (?:-- )?([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)) {
        expect(first.has(word), `${file}: kasse ${word}`).toBe(true);
        if (word === "user" || word === "admin")
          expect(pairs.has(`${word} ${next}`), `${file}: kasse ${word} ${next}`).toBe(true);
      }
  });

  const walk = useRouteWalk();
  it("every /admin, /store and /auth route is one the app registers", () => {
    // Without the catch-alls answering 404 and 405 under each prefix (`/admin/*`, `*`).
    const routes = walk.routes
      .filter((r) => r.url !== "*" && !/^\/(?:admin|store|auth)\/\*$/.test(r.url))
      .map((r) => r.url.split("/").filter(Boolean));
    /** Whether a route serves `path` (`{id}` in the docs is a parameter; `prefix` also takes routes below it). */
    const matches = (path: string[], prefix: boolean): boolean =>
      routes.some((route) => {
        const wildcard = route.at(-1) === "*";
        const fixed = wildcard ? route.slice(0, -1) : route;
        if (prefix ? fixed.length < path.length : wildcard ? path.length < fixed.length : path.length !== fixed.length)
          return false;
        return path.every(
          (segment, i) =>
            segment === fixed[i] ||
            (i < fixed.length && (fixed[i]!.startsWith(":") || segment.startsWith("{"))) ||
            (wildcard && i >= fixed.length),
        );
      });
    let checked = 0;
    const unserved: string[] = [];
    for (const { file, text } of docs)
      for (const paragraph of text.split(/\n\s*\n/).filter((p) => !p.startsWith("Not built")))
        // what Kasse lacks, by name
        for (const [path, , more] of paragraph.matchAll(/(?<![\w.…}])\/(admin|store|auth)(?:\/[\w{}:.*-]+)*(\/…)?/g)) {
          const segments = path.replace(/\/…$/, "").replace(/\.$/, "").split("/").slice(1);
          const prefix = segments.at(-1) === "*" || more !== undefined;
          if (segments.at(-1) === "*") segments.pop();
          if (segments.length === 1 && !prefix) continue; // the API's prefix itself
          checked++;
          if (!matches(segments, prefix) && !onlyWithRedis.includes(path)) unserved.push(`${file}: ${path}`);
        }
    expect(unserved, "routes the docs name that no route serves").toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe("links between the docs", () => {
  const slug = (heading: string): string =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
  const anchors = (file: string): Set<string> =>
    new Set([...withoutCode(read(file)).matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!)));

  it("every relative link names a file that exists, and a heading in it", () => {
    for (const { file, text } of docs)
      for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split("#");
        const linked = path ? relative(root, resolve(dirname(join(root, file)), path)) : file;
        expect(existsSync(join(root, linked)), `${file} links to ${target}`).toBe(true);
        if (anchor && linked.endsWith(".md"))
          expect(anchors(linked).has(anchor), `${file} links to ${target}: no such heading`).toBe(true);
      }
  });

  it("the README fits a screen or four: at most 200 lines, and it keeps the test command", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    expect(readme).toMatch(/^npm test$/m);
  });
});
