import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminBuildState } from "@kasse/admin";
import { createTestApp, type TestApp } from "../testing";

// A dashboard build in the place Kasse looks for it (apps/admin/dist/<hash of the inputs>), made
// for a backend path of its own so that it is this file's alone; the real build takes a minute.
const backendPath = `/test-${randomUUID().slice(0, 8)}`;
const build = adminBuildState({ backendPath });
const INDEX = `<!doctype html><html><head><script type="module" src="/app/assets/index-AbC123.js"></script></head><body><div id="medusa"></div></body></html>`;
const SCRIPT = "console.log('dashboard')";
const SECRET = `secret-${randomUUID()}`;
const secretFile = join(dirname(build.dir), `${build.inputs.hash}-secret.txt`);

let t: TestApp;
let off: TestApp;
let missing: TestApp;
let origin: string;

beforeAll(async () => {
  mkdirSync(join(build.dir, "assets"), { recursive: true });
  writeFileSync(join(build.dir, "index.html"), INDEX);
  writeFileSync(join(build.dir, "assets", "index-AbC123.js"), SCRIPT);
  writeFileSync(join(build.dir, "kasse-build.json"), JSON.stringify(build.inputs));
  writeFileSync(secretFile, SECRET);
  [t, off, missing] = await Promise.all([
    createTestApp({ MEDUSA_BASE_PATH: backendPath }),
    createTestApp({ MEDUSA_BASE_PATH: backendPath, ADMIN_UI: "false" }),
    createTestApp({ MEDUSA_BASE_PATH: `/never-built-${randomUUID().slice(0, 8)}` }),
  ]);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all([t?.close(), off?.close(), missing?.close()]);
  rmSync(build.dir, { recursive: true, force: true });
  rmSync(secretFile, { force: true });
});

/** A GET over a real socket with the path sent exactly as written (no URL normalization on the way). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/`, { path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the admin dashboard at /app", () => {
  it("serves index.html at /app and /app/, never cached", async () => {
    for (const url of ["/app", "/app/"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toBe(INDEX);
    }
  });

  it("serves hashed assets as immutable, with their content type", async () => {
    const res = await t.app.inject({ method: "GET", url: "/app/assets/index-AbC123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.body).toBe(SCRIPT);
  });

  it("answers deep links with index.html so the dashboard's router takes over", async () => {
    for (const url of ["/app/orders/order_123", "/app/settings/regions/reg_01ABC/edit?tab=1", "/app/login"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toBe(INDEX);
    }
    const head = await t.app.inject({ method: "HEAD", url: "/app/products/prod_1" });
    expect(head.statusCode).toBe(200);
  });

  it("answers a missing asset and other methods 404 {type, message}, not the page", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/app/assets/gone-Zz9.js" });
    expect(asset.statusCode).toBe(404);
    expect(asset.json()).toEqual({ type: "not_found", message: "Route GET /app/assets/gone-Zz9.js not found" });
    const post = await t.app.inject({ method: "POST", url: "/app/orders", payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().type).toBe("not_found");
  });

  it("serves nothing from the build folder but the bundle: the build stamp gets the page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/app/kasse-build.json" });
    expect(res.body).toBe(INDEX);
  });

  it("never serves a file outside the build through dot segments, raw or encoded", async () => {
    const name = `${build.inputs.hash}-secret.txt`;
    const paths = [
      "/app/../package.json",
      "/app/assets/../../package.json",
      `/app/../${name}`,
      `/app/%2e%2e/${name}`,
      `/app/..%2f${name}`,
      `/app/%2e%2e%2f${name}`,
      `/app/assets/..%2f..%2f${name}`,
      `/app/assets/%2e%2e%2f%2e%2e%2f${name}`,
      `/app/assets/%252e%252e%252f${name}`,
      `/app/assets/..%5c..%5c${name}`,
      "/app/..%2f..%2f..%2f..%2fpackage.json",
    ];
    for (const path of paths) {
      const res = await rawGet(path);
      expect(res.body, path).not.toContain(SECRET);
      expect(res.body, path).not.toContain('"workspaces"');
      expect([200, 400, 403, 404], path).toContain(res.status);
      if (res.status === 200) expect(res.body, path).toBe(INDEX);
    }
  });

  it("leaves the API alone", async () => {
    const res = await t.app.inject({ method: "GET", url: "/health" });
    expect(res.statusCode).toBe(200);
    const docs = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(Object.keys(docs.json().paths).filter((p) => p.startsWith("/app"))).toEqual([]);
  });
});

describe("anti-framing", () => {
  const noFraming = (res: { headers: Record<string, unknown> }, what: string) => {
    expect(res.headers["x-frame-options"], what).toBe("DENY");
    expect(res.headers["content-security-policy"], what).toBe("frame-ancestors 'none'");
  };

  it("every /app answer forbids framing: the page, deep links, assets, 404s, other methods", async () => {
    for (const url of ["/app", "/app/", "/app/orders/order_123", "/app/assets/index-AbC123.js", "/app/assets/none.js"])
      noFraming(await t.app.inject({ method: "GET", url }), url);
    noFraming(await t.app.inject({ method: "HEAD", url: "/app/settings" }), "HEAD");
    noFraming(await t.app.inject({ method: "POST", url: "/app/orders", payload: {} }), "POST");
  });

  it("the 'not built yet' answers too, JSON and HTML", async () => {
    noFraming(await missing.app.inject({ method: "GET", url: "/app" }), "json");
    const page = await missing.app.inject({ method: "GET", url: "/app/orders", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(503);
    noFraming(page, "html");
  });
});

describe("ADMIN_UI=false", () => {
  it("serves no /app at all", async () => {
    for (const url of ["/app", "/app/", "/app/orders/order_123", "/app/assets/index-AbC123.js"]) {
      const res = await off.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ type: "not_found", message: `Route GET ${url} not found` });
    }
  });
});

describe("before the dashboard is built", () => {
  it("answers 503 {type, message} saying how it gets built", async () => {
    for (const url of ["/app", "/app/orders/order_123", "/app/assets/index-AbC123.js"]) {
      const res = await missing.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers["retry-after"]).toBe("30");
      const body = res.json();
      expect(body.type).toBe("unavailable");
      expect(body.message).toMatch(/^The admin dashboard is not built yet\. `kasse start` builds it in the background/);
      expect(body.message).toContain("npm run build:admin");
    }
  });

  it("answers a browser with a page that says the same and reloads itself", async () => {
    const res = await missing.app.inject({
      method: "GET",
      url: "/app/orders",
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toContain("<h1>Admin dashboard unavailable</h1>");
    expect(res.body).toContain("npm run build:admin");
    expect(res.body).toContain('http-equiv="refresh"');
  });
});
