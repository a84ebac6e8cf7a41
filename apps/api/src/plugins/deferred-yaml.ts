import Module, { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * Defers loading the `yaml` package until it is used. @fastify/swagger and @fastify/swagger-ui
 * `require("yaml")` when they register, yet only `/docs/yaml` stringifies with it: loading its ~90
 * files was a tenth of a start's CPU. Until then Node's module cache holds a stand-in under yaml's
 * own file name, so their `require` finds it; its first property read loads the real package in its
 * place (later requires get the real one) and answers from it, so `/docs/yaml` is what it was.
 * Does nothing once yaml is loaded. Call it before registering the two plugins.
 */
export function deferYaml(): void {
  const path = createRequire(require.resolve("@fastify/swagger")).resolve("yaml");
  const cache = require.cache;
  if (cache[path]) return;
  let real: Record<string | symbol, unknown> | undefined;
  const load = () => {
    if (!real) {
      // Only the stand-in is dropped: `require` then loads the package as it would have.
      if (cache[path] === standIn) delete cache[path];
      real = require(path) as Record<string | symbol, unknown>;
    }
    return real;
  };
  const exports = new Proxy(
    {},
    {
      get: (_, key) => load()[key],
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
  const standIn = new Module(path);
  standIn.filename = path;
  standIn.exports = exports;
  standIn.loaded = true;
  cache[path] = standIn;
}
