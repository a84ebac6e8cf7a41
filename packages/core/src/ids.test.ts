import { describe, expect, it } from "vitest";
import { generateId } from "./ids";

describe("generateId", () => {
  it("gives prefixed, time-ordered ids that never repeat, across refills of the random pool", () => {
    const ids = Array.from({ length: 1000 }, () => generateId("cart")); // five pools of 200
    for (const id of ids) expect(id).toMatch(/^cart_[0-9A-HJKMNP-TV-Z]{30}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(15))).size).toBe(ids.length); // the random parts alone
    expect(ids[999]!.slice(5, 15) >= ids[0]!.slice(5, 15)).toBe(true);
  });
});
