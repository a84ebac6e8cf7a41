import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing";

const t = useTestApp();
const require = createRequire(import.meta.url);

describe("yaml, loaded on first use", () => {
  it("serves /docs/yaml as the same document as /docs/json", async () => {
    const [json, yamlAnswer] = await Promise.all([
      t.app.inject({ method: "GET", url: "/docs/json" }),
      t.app.inject({ method: "GET", url: "/docs/yaml" }),
    ]);
    expect(yamlAnswer.statusCode).toBe(200);
    expect(yamlAnswer.headers["content-type"]).toMatch(/^application\/x-yaml/);
    // Read with the package itself, which the stand-in has handed over to by now.
    const yaml = require(createRequire(require.resolve("@fastify/swagger")).resolve("yaml")) as {
      parse(text: string, options: { maxAliasCount: number }): unknown;
      stringify: unknown;
    };
    // The document repeats shared schemas as YAML aliases, many more than the parser allows by default.
    expect(yaml.parse(yamlAnswer.body, { maxAliasCount: -1 })).toEqual(json.json());
    expect(typeof yaml.stringify).toBe("function");
  });
});
