/** Where a {@link VersionedCache} reads the data's current version and when a fresh answer stops being true. */
export interface VersionedCacheOptions {
  /** The data's current version (one small statement); any change of it drops every entry. */
  version: () => Promise<string>;
  /** When answers read now may change without a write (a price list starting); null: never. */
  validUntil: () => Promise<Date | null>;
  /** Entries kept; the least recently used goes first. 0: no cache, every read loads. */
  maxEntries: number;
  /**
   * What the entries may weigh together, by `sizeOf`; the least recently used go first. An answer
   * heavier than this on its own is not kept. Absent: only `maxEntries` bounds the cache.
   */
  maxBytes?: number;
  /** An answer's weight in bytes (an estimate: what keeping it costs the process's memory). */
  sizeOf?: (value: unknown) => number;
}

interface Entry {
  version: string;
  expiresAt: number;
  value: unknown;
  bytes: number;
}

/**
 * A per-process cache of answers labelled with the data version read BEFORE the answer was read:
 * an answer stored under a version is at least as new as that version, so a request that reads a
 * newer version (any write since committed, in any process) never gets an older answer.
 * Concurrent misses of one key share one read, and concurrent requests share version reads (see
 * `currentVersion`), so a busy process sends about one version statement per database round trip.
 */
export function createVersionedCache(options: VersionedCacheOptions) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<unknown>>();
  let running: Promise<string> | undefined;
  let queued: Promise<string> | undefined;

  const startRead = (): Promise<string> => {
    const read = options.version();
    running = read;
    const settle = () => {
      if (running === read) running = undefined;
    };
    read.then(settle, settle);
    return read;
  };

  /**
   * A version read that started after this call: a request may not use a read already under way
   * (it may have begun before a write this request must see committed), so it waits for the next
   * one, which every request arriving meanwhile shares.
   */
  const currentVersion = (): Promise<string> => {
    if (!running) return startRead();
    queued ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return startRead();
      });
    return queued;
  };

  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const store = (key: string, entry: Entry) => {
    drop(key);
    if (entry.bytes > maxBytes) return;
    entries.set(key, entry);
    bytes += entry.bytes;
    // Map keeps insertion order: the first key is the least recently used.
    while (entries.size > options.maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
  };

  return {
    /** The answer of `key`: the stored one when its version is current, else `load()`'s (stored). Failures are not stored. */
    async read<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (options.maxEntries === 0) return load();
      const version = await currentVersion();
      const hit = entries.get(key);
      if (hit && hit.version === version && hit.expiresAt > Date.now()) {
        // Most recently used last: Map keeps insertion order.
        entries.delete(key);
        entries.set(key, hit);
        return hit.value as T;
      }
      const loadKey = `${version}\u0000${key}`;
      const pending = loading.get(loadKey);
      if (pending) return pending as Promise<T>;
      const read = (async () => {
        const [value, until] = await Promise.all([load(), options.validUntil()]);
        store(key, {
          version,
          expiresAt: until ? until.getTime() : Number.POSITIVE_INFINITY,
          value,
          bytes: options.sizeOf?.(value) ?? 0,
        });
        return value;
      })();
      loading.set(loadKey, read);
      try {
        return await read;
      } finally {
        loading.delete(loadKey);
      }
    },
  };
}

export type VersionedCache = ReturnType<typeof createVersionedCache>;
