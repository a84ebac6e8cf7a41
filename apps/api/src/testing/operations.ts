import type { FastifyInstance } from "fastify";

/** One registered route and method, its path in OpenAPI form (`/admin/products/{id}`). */
export interface RegisteredOperation {
  method: string;
  path: string;
}

/**
 * Every route the app registered, read from fastify's own route tree (not from the OpenAPI
 * document, which is what tests hold against it): HEAD (automatic for GET), OPTIONS (CORS
 * preflight), the `/docs` UI, the admin dashboard's `/app` and catch-alls are left out: static
 * files, not API operations.
 */
export function registeredOperations(app: FastifyInstance): RegisteredOperation[] {
  const operations: RegisteredOperation[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const branch = line.search(/[├└]── /);
    if (branch < 0) continue;
    const depth = branch / 4;
    const match = /^(\S*)(?: \(([^)]*)\))?/.exec(line.slice(branch + 4))!;
    stack.length = depth;
    stack.push(match[1]!);
    const url = stack.join("");
    if (!match[2] || url.startsWith("/docs") || url === "/app" || url.startsWith("/app/") || url.includes("*"))
      continue;
    for (const method of match[2].split(", "))
      if (method !== "HEAD" && method !== "OPTIONS") operations.push({ method, path: namedParams(app, method, url) });
  }
  return operations;
}

/**
 * The tree merges parameters of sibling routes (`:actor_type|:provider`): numbered placeholders
 * and `findRoute` tell which name each route gives its parameters.
 */
function namedParams(app: FastifyInstance, method: string, url: string): string {
  let n = 0;
  const numbered = url.replace(/:[A-Za-z0-9_]+(\|:[A-Za-z0-9_]+)*/g, () => `:p${n++}`);
  const params = (app.findRoute({ method: method as "GET", url: numbered })?.params ?? {}) as Record<string, string>;
  const names = new Map(Object.entries(params).map(([name, placeholder]) => [placeholder, name]));
  return numbered.replace(/:p\d+/g, (placeholder) => `{${names.get(placeholder) ?? placeholder.slice(1)}}`);
}
