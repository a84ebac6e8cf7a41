import { describe, expect, it } from "vitest";
import { createVersionedCache } from "./versioned-cache";

/** A version source whose reads the test answers by hand, oldest first. */
function versionSource() {
  const pending: Array<{ resolve: (v: string) => void }> = [];
  return {
    reads: () => pending.length,
    /** Answers the oldest read still waiting with `version` (what its snapshot saw). */
    answer: async (version: string) => {
      pending.shift()!.resolve(version);
      await new Promise((resolve) => setImmediate(resolve));
    },
    version: () => new Promise<string>((resolve) => pending.push({ resolve })),
  };
}

describe("versioned cache", () => {
  it("keeps an answer while the version stays, and reads again once it moved", async () => {
    let loads = 0;
    const cache = createVersionedCache({ version: async () => version, validUntil: async () => null, maxEntries: 10 });
    let version = "1";
    const load = async () => ++loads;
    expect(await cache.read("k", load)).toBe(1);
    expect(await cache.read("k", load)).toBe(1);
    version = "2";
    expect(await cache.read("k", load)).toBe(2);
  });

  it("expires an answer at its validUntil", async () => {
    let loads = 0;
    const until = new Date(Date.now() + 30);
    const cache = createVersionedCache({ version: async () => "1", validUntil: async () => until, maxEntries: 10 });
    const load = async () => ++loads;
    expect(await cache.read("k", load)).toBe(1);
    expect(await cache.read("k", load)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.read("k", load)).toBe(2);
  });

  it("never lets a request use a version read that began before it arrived; later arrivals share the next read", async () => {
    const source = versionSource();
    let loads = 0;
    const cache = createVersionedCache({ version: source.version, validUntil: async () => null, maxEntries: 10 });
    const load = async () => `answer ${++loads}`;
    const first = cache.read("k", load);
    expect(source.reads()).toBe(1);
    // A write commits (version 2) after the first read was sent; these requests arrive after it,
    // and the first read's snapshot still saw version 1.
    const later = [cache.read("k", load), cache.read("k", load), cache.read("k", load)];
    expect(source.reads()).toBe(1);
    await source.answer("1");
    expect(await first).toBe("answer 1");
    expect(source.reads()).toBe(1); // one shared read for the three later requests
    await source.answer("2");
    expect(await Promise.all(later)).toEqual(["answer 2", "answer 2", "answer 2"]);
  });

  it("loads every time when it keeps no entries", async () => {
    let loads = 0;
    let versionReads = 0;
    const cache = createVersionedCache({
      version: async () => String(++versionReads),
      validUntil: async () => null,
      maxEntries: 0,
    });
    await cache.read("k", async () => ++loads);
    await cache.read("k", async () => ++loads);
    expect([loads, versionReads]).toEqual([2, 0]);
  });

  it("keeps what fits its byte budget, least recently used going first, and nothing heavier than the budget", async () => {
    let loads = 0;
    const cache = createVersionedCache({
      version: async () => "1",
      validUntil: async () => null,
      maxEntries: 100,
      maxBytes: 10,
      sizeOf: (value) => (value as { bytes: number }).bytes,
    });
    const read = (key: string, bytes: number) => cache.read(key, async () => ({ bytes, load: ++loads }));
    await read("a", 4);
    await read("b", 4);
    await read("a", 4); // a is now the most recently used
    expect(loads).toBe(2);
    await read("c", 4); // 12 bytes: b goes
    expect(loads).toBe(3);
    expect((await read("a", 4)).load).toBe(1);
    expect((await read("c", 4)).load).toBe(3);
    expect((await read("b", 4)).load).toBe(4); // read again; a (least recently used) made room
    expect((await read("c", 4)).load).toBe(3);
    expect((await read("a", 4)).load).toBe(5);
    await read("big", 11);
    expect((await read("big", 11)).load).toBe(7); // never kept
    expect((await read("c", 4)).load).toBe(3); // and it pushed nothing out
  });
});
