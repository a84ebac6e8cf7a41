import { randomUUID } from "node:crypto";

/** An HTTP answer: status and parsed JSON body. */
export interface Answer {
  status: number;
  /** Answered from the Idempotency-Key's stored response (a repeat that ran nothing). */
  replayed: boolean;
  // The soak reads a few fields of many shapes; it checks what it reads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** What the clients lived through, for the figures. */
interface ClientFigures {
  requests: number;
  /** Requests sent again (same Idempotency-Key) after a connection failure, a 5xx or a 409 while the first ran. */
  retries: number;
  /** Retries whose key was still held by a request of a killed process: sent again under a new key. */
  newKeys: number;
}

interface Call {
  headers?: Record<string, string>;
  body?: unknown;
  /** Waits this long for an answer (a checkout whose provider hangs takes 15 s). */
  timeoutMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A failure worth retrying: the process died or is restarting, the request with this key still
 * runs, or the cart's completion still runs in a process that died (until its lease expires and a
 * worker resumes it).
 */
const retryable = (answer: Answer | null) =>
  answer === null ||
  answer.status >= 502 ||
  (answer.status === 409 && /still being processed|still running/i.test(String(answer.body?.message)));

/**
 * The users' HTTP client: round-robin over the API processes that are up, and every POST under an
 * Idempotency-Key that its retries reuse, as a storefront retrying a lost answer does. A key held
 * by a request whose process was killed stays `running` for minutes (IDEMPOTENCY_STALE_MS): after
 * `keyPatienceMs` of 409s the client goes on under a new key, as a shopper reloading would.
 */
export function createClient(liveApiUrls: () => string[], options: { keyPatienceMs?: number; giveUpMs?: number } = {}) {
  const figures: ClientFigures = { requests: 0, retries: 0, newKeys: 0 };
  const keyPatienceMs = options.keyPatienceMs ?? 6_000;
  const giveUpMs = options.giveUpMs ?? 90_000;
  let turn = 0;

  async function once(method: string, path: string, call: Call, key: string | undefined): Promise<Answer | null> {
    const urls = liveApiUrls();
    const base = urls[turn++ % Math.max(1, urls.length)];
    if (!base) return null;
    figures.requests++;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...call.headers,
          ...(key ? { "idempotency-key": key } : {}),
          ...(call.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(call.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      return {
        status: res.status,
        replayed: res.headers.get("idempotent-replayed") === "true",
        body: text ? JSON.parse(text) : null,
      };
    } catch {
      return null;
    }
  }

  return {
    figures,
    /**
     * Sends until an answer that is not worth retrying, or `giveUpMs` passed (then null: the
     * outcome is unknown to the client; the checks afterwards find it in the database).
     * `onKey` hears every key used, so the soak can check none of them made a duplicate.
     */
    async request(
      method: string,
      path: string,
      call: Call & { key?: string } = {},
      onKey?: (key: string) => void,
    ): Promise<Answer | null> {
      const started = Date.now();
      let key = call.key ?? (method === "POST" ? randomUUID() : undefined);
      let keySince = started;
      if (key) onKey?.(key);
      for (let attempt = 0; ; attempt++) {
        const answer = await once(method, path, call, key);
        if (!retryable(answer)) return answer;
        if (Date.now() - started > giveUpMs) return null;
        figures.retries++;
        if (key && answer?.status === 409 && Date.now() - keySince > keyPatienceMs) {
          key = randomUUID();
          keySince = Date.now();
          figures.newKeys++;
          onKey?.(key);
        }
        await pause(Math.min(2_000, 100 * 2 ** Math.min(attempt, 5)));
      }
    },
  };
}

export type Client = ReturnType<typeof createClient>;
