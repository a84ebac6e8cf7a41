import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRouteHook } from "./route-hooks";
import { isFileUrl } from "@kasse/core";
import { branches } from "../http/money";
import { responseSchema } from "./medusa-dialect";

type Schema = Record<string, unknown>;

/** Where a schema's picture URLs are: the node itself, its properties, its array items (only the paths that lead to one). */
interface Marks {
  self?: true;
  props?: Map<string, Marks>;
  items?: Marks;
}

// Views nest a few levels (a category's children's children); deeper than this is no answer's shape.
const MAX_DEPTH = 16;

/** The marked paths of a schema, or undefined when it has none (then nothing is walked). */
function marksOf(schemas: Schema[], depth = 0): Marks | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const all = schemas.flatMap(branches);
  const marks: Marks = {};
  if (all.some((s) => isFileUrl(s))) marks.self = true;
  const props = new Map<string, Schema[]>();
  const items: Schema[] = [];
  for (const s of all) {
    if (s.properties && typeof s.properties === "object")
      for (const [key, sub] of Object.entries(s.properties as Record<string, Schema>))
        props.set(key, [...(props.get(key) ?? []), sub]);
    if (s.items && typeof s.items === "object" && !Array.isArray(s.items)) items.push(s.items as Schema);
  }
  for (const [key, subs] of props) {
    const sub = marksOf(subs, depth + 1);
    if (sub) (marks.props ??= new Map()).set(key, sub);
  }
  if (items.length) marks.items = marksOf(items, depth + 1);
  return marks.self || marks.props || marks.items ? marks : undefined;
}

/** Marks by schema object: route schemas live as long as the app, and are read once each. */
const compiled = new WeakMap<object, Marks | null>();

function marksFor(schema: unknown): Marks | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  let marks = compiled.get(schema);
  if (marks === undefined) {
    marks = marksOf([schema as Schema]) ?? null;
    compiled.set(schema, marks);
  }
  return marks ?? undefined;
}

/**
 * `value` with `map` applied to every string at a marked path; objects and arrays on the way to
 * a changed string are copied, never changed in place (an answer may be shared, e.g. cached).
 */
function mapMarked(value: unknown, marks: Marks, map: (url: string) => string): unknown {
  if (typeof value === "string") return marks.self ? map(value) : value;
  if (Array.isArray(value)) {
    if (!marks.items) return value;
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const mapped = mapMarked(item, marks.items!, map);
      if (mapped !== item) (out ??= value.slice())[i] = mapped;
    });
    return out ?? value;
  }
  if (!value || typeof value !== "object" || !marks.props || value instanceof Date || Buffer.isBuffer(value))
    return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, sub] of marks.props) {
    const field = (value as Record<string, unknown>)[key];
    if (field === null || field === undefined) continue;
    const mapped = mapMarked(field, sub, map);
    if (mapped !== field) (out ??= { ...(value as Record<string, unknown>) })[key] = mapped;
  }
  return out ?? value;
}

/**
 * Pictures' URLs at the HTTP boundary, in both dialects (docs/files.md): a request's URL of one
 * of the store's files (a field marked `FileUrl`) is stored as the file's reference, and an
 * answer's reference (a field marked `FileUrlView`) is sent as the absolute URL it has now, at
 * the current `PUBLIC_URL` (or the provider's address). Which fields are read from the route's
 * schemas; no route converts anything itself.
 */
export function registerFileUrls(app: FastifyInstance): void {
  // Only on the routes whose schemas mark a file's URL; read per request, as the route's schemas
  // may gain answers after this hook (openapi.ts adds the error ones).
  app.addHook("onRoute", (route) => {
    if (marksFor(route.schema?.body))
      // After validation: the route's schema has checked the URL as the client sent it.
      addRouteHook(route, "preHandler", async (request: FastifyRequest) => {
        const body = request.body;
        if (!body || typeof body !== "object") return;
        const marks = marksFor(request.routeOptions.schema?.body);
        if (marks) request.body = mapMarked(body, marks, (url) => app.modules.file.reference(url));
      });
    const responses = Object.values((route.schema?.response ?? {}) as Record<string, unknown>);
    if (responses.some((schema) => marksFor(schema)))
      addRouteHook(
        route,
        "preSerialization",
        async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
          if (payload === null || typeof payload !== "object") return payload;
          const marks = marksFor(responseSchema(request.routeOptions.schema, reply.statusCode));
          return marks ? mapMarked(payload, marks, (value) => app.modules.file.resolve(value)) : payload;
        },
      );
  });
}
