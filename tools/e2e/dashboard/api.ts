import type { RunningKasse } from "./kasse";

type Json = Record<string, unknown>;

/** A JSON call to Kasse's contract at the root (integer minor units); rejects on any non-2xx answer. */
export type Api = <T = Json>(method: string, path: string, body?: unknown) => Promise<T>;

/** Calls `origin` with `headers` on every request. */
export function createApi(origin: string, headers: Record<string, string> = {}): Api {
  return async <T = Json>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
}

/** Kasse's admin API, signed in as the run's admin. */
export async function adminApi(kasse: RunningKasse): Promise<Api> {
  const { token } = await createApi(kasse.origin)<{ token: string }>("POST", "/auth/user/emailpass", kasse.admin);
  return createApi(kasse.origin, { authorization: `Bearer ${token}` });
}
