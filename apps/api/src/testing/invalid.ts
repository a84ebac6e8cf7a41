import { expect } from "vitest";
import type { Requester } from "./app";

/**
 * Asserts that a GET of `base` followed by each of `suffixes` (queries or paths) answers 400
 * `{type: "invalid_data", message}`: the bad-input checks every list and read route has, one
 * request each, the failing URL named in the assertion.
 * @example
 * await expectInvalidData(t.admin, "/admin/orders?", "limit=-1", "order=nope");
 */
export async function expectInvalidData(caller: Requester, base: string, ...suffixes: string[]): Promise<void> {
  // A call with no suffix would assert nothing and pass.
  if (suffixes.length === 0) throw new Error("expectInvalidData: no URL to check");
  for (const suffix of suffixes) {
    const url = `${base}${suffix}`;
    const res = await caller.get(url);
    expect(res.statusCode, url).toBe(400);
    expect(res.json(), url).toMatchObject({ type: "invalid_data", message: expect.any(String) });
  }
}
