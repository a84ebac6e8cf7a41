import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing";

const t = useTestApp();

const send = (method: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: method as "GET", url, headers });

describe("a known path with a method it does not take", () => {
  it("answers 405 not_allowed with an Allow header listing the path's methods", async () => {
    for (const method of ["TRACE", "PUT", "PATCH", "DELETE", "POST"]) {
      const res = await send(method, "/store/products");
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe("GET, HEAD");
      expect(res.json(), method).toEqual({
        type: "not_allowed",
        message: `Method ${method} is not allowed on /store/products; allowed: GET, HEAD`,
      });
    }
  });

  it("works for parameterised paths, every group, and percent-encoded spellings of them", async () => {
    for (const [method, url, allow] of [
      ["PUT", "/admin/products", "GET, HEAD, POST"],
      ["PATCH", "/admin/products/prod_123", "DELETE, GET, HEAD, POST"],
      ["DELETE", "/auth/customer/emailpass", "GET, HEAD, POST"],
      ["TRACE", "/%73tore/products?limit=1", "GET, HEAD"],
    ] as const) {
      const res = await send(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
    }
  });

  it("a plain OPTIONS (no CORS preflight) is a method like any other", async () => {
    const res = await send("OPTIONS", "/store/products");
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });

  it("answers the methods a path takes as before", async () => {
    expect((await send("GET", "/store/products")).statusCode).toBe(200);
    expect((await send("HEAD", "/store/products")).statusCode).toBe(200);
  });
});

describe("an unknown path", () => {
  it("answers 404 not_found with no Allow header, whatever the method", async () => {
    for (const [method, url] of [
      ["GET", "/store/nothing-here"],
      ["TRACE", "/nothing"],
      ["PUT", "//store/products"],
      ["DELETE", "/Store/products"],
      ["OPTIONS", "/nothing"],
    ] as const) {
      const res = await send(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json()).toEqual({ type: "not_found", message: `Route ${method} ${url} not found` });
    }
  });
});
