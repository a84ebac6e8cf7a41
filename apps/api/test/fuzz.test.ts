import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { stringify } from "qs";
import { checkInvariants } from "@kasse/operations";
import { createTestApp, type TestApp } from "../src/testing";
import { registeredOperations } from "../src/testing/operations";
import {
  hostileBody,
  hostileParam,
  hostileQuery,
  hostileValue,
  pathEncoding,
  valid,
  type JsonSchema,
} from "./fuzz/arbitraries";
import { fingerprinter, idName, seedFuzzStore, type Actor, type AdminCredential, type FuzzStore } from "./fuzz/store";

/**
 * Property-based fuzzing of every operation, driven by the OpenAPI document: requests generated
 * from each operation's own schemas (valid ones and hostile mutations), sent as an anonymous
 * caller, a customer and an admin to a seeded store. Fails on any 5xx, on a status the operation
 * does not document, on an answer that does not match the schema documented for its status, and
 * on a refused request (4xx) that changed the database; and, once every operation ran (a cart
 * whose payment is authorized among the targets), on an order whose payments hold or took more than its total.
 *
 * `npm test` runs a bounded pass; `npm run fuzz` a longer one. Environment: FUZZ_SEED (default a
 * fixed seed), FUZZ_RUNS (runs per operation), FUZZ_BUDGET_MS (whole run), FUZZ_OPS (a regular
 * expression on "METHOD /path" to fuzz only some operations), FUZZ_REPORT (a file to write the
 * findings to, each with the exact request to replay: earlier operations change the store, so a
 * seed alone replays a finding only in a run over the same operations).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_614);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 120_000);
const ONLY = process.env.FUZZ_OPS ? new RegExp(process.env.FUZZ_OPS) : null;
const ACTORS: Actor[] = ["anonymous", "customer", "admin"];

type Parameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

interface Case {
  actor: Actor;
  credential: AdminCredential;
  publishable: boolean;
  mutation: "none" | "field" | "query" | "rawQuery" | "body" | "param" | "path";
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  rawBody?: string;
  encode?: (path: string) => string;
  /** Query text appended as is (nesting, repeats, prototype keys that `qs` must not turn into objects). */
  rawQuery?: string;
  idempotencyKey: string | null;
}

interface Finding {
  operation: string;
  problem: string;
  request: string;
  /** The request exactly as sent, to replay it (written to FUZZ_REPORT). */
  sent?: ReturnType<typeof requestOf>;
  status: number;
  answer: string;
}

let t: TestApp;
let store: FuzzStore;
let doc: Doc;
let fingerprint: () => Promise<Map<string, string>>;
beforeAll(async () => {
  t = await createTestApp();
  doc = t.app.swagger() as unknown as Doc;
  const lists = registeredOperations(t.app)
    .filter((o) => o.method === "GET" && !o.path.includes("{") && /^\/(admin|store)\//.test(o.path))
    .map((o) => o.path);
  store = await seedFuzzStore(t, lists);
  fingerprint = await fingerprinter(t);
}, 180_000);
afterAll(() => t?.close());

const ajv = addFormats(new Ajv({ strict: false, allErrors: false, validateFormats: true }));
const validators = new Map<JsonSchema, ValidateFunction>();
function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile({ ...schema, components: doc.components })));
  return validate;
}
const ERROR: JsonSchema = {
  type: "object",
  required: ["type", "message"],
  properties: { type: { type: "string" }, message: { type: "string" } },
};
const resolve = (ref: string) => doc.components!.schemas![ref.split("/").pop()!]!;

/** Operations in an order that keeps the store usable: reads, then writes, then auth, then deletes. */
function operationsInOrder(): Array<{ method: string; path: string; operation: Operation }> {
  const rank = (method: string, path: string) =>
    method === "DELETE" ? 3 : path.startsWith("/auth") ? 2 : method === "GET" ? 0 : 1;
  return registeredOperations(t.app)
    .filter(({ method, path }) => !ONLY || ONLY.test(`${method} ${path}`))
    .map(({ method, path }) => ({ method, path, operation: doc.paths[path]![method.toLowerCase()]! }))
    .sort((a, b) => rank(a.method, a.path) - rank(b.method, b.path));
}

function caseFor(method: string, path: string, operation: Operation, actor: Actor): fc.Arbitrary<Case> {
  const parameters = operation.parameters ?? [];
  const pools = store.pools;
  const pathParams = parameters.filter((p) => p.in === "path");
  const segments = path.split("/");
  const poolName = (name: string) => {
    if (name !== "id") return name;
    const resource = segments[segments.indexOf("{id}") - 1] ?? "";
    return idName(resource);
  };
  const params = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const pool = [...(pools.get(poolName(p.name)) ?? [])].filter(
          (id) => !(method === "DELETE" || path.endsWith("/revoke")) || !store.protectedIds.has(id),
        );
        return [
          p.name,
          pool.length
            ? fc.oneof(
                { arbitrary: fc.constantFrom(...pool), weight: 4 },
                { arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent), weight: 1 },
              )
            : fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
        ];
      }),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const queryProps = parameters.filter((p) => p.in === "query");
  const query = fc.record(
    Object.fromEntries(queryProps.map((p) => [p.name, valid(p.schema, pools, resolve, p.name)])),
    { requiredKeys: queryProps.filter((p) => p.required).map((p) => p.name) },
  );
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  const body = bodySchema ? valid(bodySchema, pools, resolve) : fc.constant(undefined);
  const mutations: Case["mutation"][] = ["none", "none", "field", "query", "rawQuery", "param", "path"];
  if (method !== "GET") mutations.push("body", "field");
  return fc
    .record({
      actor: fc.constant(actor),
      credential: fc.constantFrom<AdminCredential>("jwt", "jwt", "header", "basic", "query"),
      publishable: fc.boolean(),
      mutation: fc.constantFrom(...mutations),
      params,
      query,
      body,
      hostile: hostileValue,
      hostileBody,
      hostileParam,
      hostileQuery,
      encode: pathEncoding,
      target: fc.nat(),
      idempotencyKey:
        method === "POST"
          ? fc.option(fc.oneof(fc.uuid(), fc.constantFrom("", " ", "x".repeat(300), "a b", "%00")), { freq: 4 })
          : fc.constant(null),
    })
    .map(({ hostile, hostileBody: raw, hostileParam: param, hostileQuery: rawQuery, encode, target, ...c }) => {
      const out: Case = { ...c, query: { ...c.query }, params: { ...c.params } };
      if (c.mutation === "field") {
        // One field of the body (or of the query, for a GET) gets a hostile value.
        if (out.body && typeof out.body === "object" && !Array.isArray(out.body)) {
          const keys = Object.keys(bodySchema?.properties ?? out.body);
          out.body = { ...(out.body as object), [keys[target % Math.max(keys.length, 1)] ?? "metadata"]: hostile };
        } else if (queryProps.length) out.query[queryProps[target % queryProps.length]!.name] = hostile;
        else out.query.limit = hostile;
      }
      if (c.mutation === "query")
        out.query[queryProps.length ? queryProps[target % queryProps.length]!.name : "offset"] = hostile;
      if (c.mutation === "body") out.rawBody = raw;
      if (c.mutation === "param") {
        const names = Object.keys(out.params);
        if (names.length) out.params[names[target % names.length]!] = param;
        else out.encode = encode;
      }
      if (c.mutation === "path") out.encode = encode;
      if (c.mutation === "rawQuery") out.rawQuery = rawQuery;
      return out;
    });
}

function requestOf(method: string, path: string, c: Case) {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) => c.params[name] ?? "x");
  if (c.encode) url = c.encode(url);
  const queryString = stringify(
    c.actor === "admin" && c.credential === "query" ? { ...c.query, api_token: store.apiToken } : c.query,
    { encodeValuesOnly: false, allowDots: false },
  );
  const query = [queryString, c.rawQuery].filter(Boolean).join("&");
  if (query) url += `?${query}`;
  const headers: Record<string, string> = { ...store.headers(c.actor, c.credential) };
  if (c.publishable && path.startsWith("/store")) headers["x-publishable-api-key"] = store.publishableKey;
  if (c.idempotencyKey !== null) headers["idempotency-key"] = c.idempotencyKey;
  let payload: string | undefined;
  if (c.rawBody !== undefined) payload = c.rawBody;
  else if (c.body !== undefined) payload = JSON.stringify(c.body);
  if (payload !== undefined) headers["content-type"] = "application/json";
  return { method, url, headers, payload };
}

/** The documented answer for a status: exact, then `4XX`/`5XX`, then `default`. */
function documented(operation: Operation, status: number) {
  return (
    operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default
  );
}

/** What is wrong with an answer, or null: a 5xx, an undocumented status or body, a refusal that changed the database. */
function check(
  operation: Operation,
  c: Case,
  status: number,
  text: string,
  before: Map<string, string>,
  after: Map<string, string>,
): string | null {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    return "the answer is not JSON";
  }
  if (status >= 500) return `answered ${status}`;
  if (status < 300) store.harvest(body);
  // An encoded path, or a parameter like `%2e%2e` (or a generated `.` or `..`, a dot segment the URL
  // drops), may lead to no route or another one: the app's 404/405 then answers, not this operation.
  const dotSegment = Object.values(c.params).some((value) => value === "." || value === "..");
  const rerouted = (c.encode || c.mutation === "param" || dotSegment) && (status === 404 || status === 405);
  const answer = rerouted ? { content: { "application/json": { schema: ERROR } } } : documented(operation, status);
  if (!answer) return `answered ${status}, which the operation does not document`;
  const schema = answer.content?.["application/json"]?.schema;
  if (schema && body !== undefined) {
    const validate = validatorFor(schema);
    if (!validate(body)) return `the ${status} answer does not match its schema: ${ajv.errorsText(validate.errors)}`;
  }
  if (status >= 400) {
    const changed = [...after].filter(([table, value]) => before.get(table) !== value).map(([table]) => table);
    if (changed.length) return `refused with ${status} but changed ${changed.join(", ")}`;
  }
  return null;
}

/** The fingerprint once two readings 25 ms apart agree (at most about half a second). */
async function settled(previous: Map<string, string>): Promise<Map<string, string>> {
  let current = await fingerprint();
  for (let i = 0; i < 20 && !sameState(current, previous); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    previous = current;
    current = await fingerprint();
  }
  return current;
}

const sameState = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([table, value]) => b.get(table) === value);

function operationSeed(name: string): number {
  return createHash("sha256").update(`${SEED}:${name}`).digest().readUInt32BE(0);
}

describe("fuzzing every operation from its OpenAPI schemas", () => {
  it(
    "answers no 5xx, only documented statuses and schemas, and changes nothing when it refuses",
    async () => {
      const operations = operationsInOrder();
      expect(operations.length).toBeGreaterThan(ONLY ? 0 : 200);
      const findings: Finding[] = [];
      const started = Date.now();
      let cases = 0;
      let state = await fingerprint();
      const runs = operations.flatMap((op) => ACTORS.map((actor) => ({ ...op, actor })));
      for (const [index, { method, path, operation, actor }] of runs.entries()) {
        const name = `${method} ${path}`;
        // Past the budget every operation and caller still gets one case. (fast-check's own time
        // limit would abandon a request in flight, and its writes would land in the next case.)
        const numRuns = Date.now() - started < BUDGET_MS * (index / runs.length) + BUDGET_MS / 10 ? RUNS : 1;
        const found: Finding[] = [];
        const property = fc.asyncProperty(caseFor(method, path, operation, actor), async (c) => {
          const request = requestOf(method, path, c);
          const before = state;
          const res = await t.app.inject({ ...request, method: method as "GET" });
          cases++;
          // An accepted request may leave work running (a notification, a mail): wait for it to settle.
          state = res.statusCode < 400 ? await settled(before) : await fingerprint();
          const problem = check(operation, c, res.statusCode, res.body, before, state);
          if (!problem) return true;
          found.push({
            operation: name,
            problem,
            request: `${request.method} ${request.url.slice(0, 300)} as ${c.actor === "admin" ? `admin (${c.credential})` : c.actor} (${c.mutation})${request.payload ? ` body ${request.payload.slice(0, 1000)}` : ""}`,
            status: res.statusCode,
            answer: res.body.slice(0, 300),
            sent: request,
          });
          return false;
        });
        const result = await fc.check(property, {
          seed: operationSeed(`${name} ${actor}`),
          numRuns,
          endOnFailure: true,
        });
        const finding = found[found.length - 1];
        if (finding)
          findings.push({
            ...finding,
            problem: `${finding.problem} (reproduce: FUZZ_SEED=${SEED} FUZZ_OPS='^${method} ${path.replace(/[{}]/g, "\\$&")}$')`,
          });
        else if (result.failed)
          findings.push({
            operation: name,
            problem: `the fuzzer threw ${String(result.errorInstance)}`,
            request: "",
            status: 0,
            answer: "",
          });
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.warn(
        `fuzz: ${operations.length} operations × ${ACTORS.length} callers, ${cases} cases in ${seconds} s (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}), ${findings.length} failing`,
      );
      if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(findings, null, 2));
      for (const finding of findings)
        console.warn(
          `fuzz finding: ${finding.operation}: ${finding.problem}\n  request: ${finding.request}\n  answer ${finding.status}: ${finding.answer}`,
        );
      expect(findings.map((f) => `${f.operation}: ${f.problem}`)).toEqual([]);
      // Whatever the callers did to carts after their payment was authorized, to the catalog and
      // promotions under them, and to orders' payments: no order holds or took more than its total.
      const payments = (await checkInvariants(t.app.modules, { leaseMs: 60_000, recoveryEveryMs: 60_000 })).filter(
        (r) => r.name.startsWith("payments:"),
      );
      expect(payments.flatMap((r) => r.violations.map((v) => `${r.name}: ${v.id} ${v.problem}`))).toEqual([]);
    },
    BUDGET_MS + 120_000,
  );
});
