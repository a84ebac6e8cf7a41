import { createHmac } from "node:crypto";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";

/** Addresses a webhook may not reach unless private delivery is allowed (SSRF). */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  blocked.addSubnet(net, prefix, net.includes(":") ? "ipv6" : "ipv4");

/** True for a loopback, private, link-local, multicast or otherwise non-public address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true;
}

/**
 * Why `url` cannot be a webhook endpoint, or null: only http(s), no credentials in it, and (unless
 * `allowPrivate`) no loopback, private or link-local host written as an address or `localhost`.
 * Host names are checked again against their resolved addresses at each delivery.
 */
export function urlProblem(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not a valid URL`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "A webhook URL must use http or https";
  if (parsed.username || parsed.password) return "A webhook URL may not carry credentials";
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost"))
    return "A webhook URL may not point at this machine (WEBHOOK_ALLOW_PRIVATE=true allows it)";
  if (isIP(host) && isPrivateAddress(host))
    return `A webhook URL may not point at a loopback, private or link-local address (${host}; WEBHOOK_ALLOW_PRIVATE=true allows it)`;
  return null;
}

/** Standard Webhooks' signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export interface SendResult {
  status_code: number | null;
  duration_ms: number;
  /** Null on a 2xx answer. */
  error: string | null;
}

/** Resolves like `dns.lookup`, refusing private addresses: the check holds for the address actually connected to. */
function guardedLookup(allowPrivate: boolean): RequestOptions["lookup"] {
  return ((
    hostname: string,
    options: object,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad)
        return callback(new Error(`${hostname} resolves to a private address (${bad.address}); delivery refused`), "");
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), "");
      callback(null, first.address, first.family);
    });
  }) as RequestOptions["lookup"];
}

/**
 * POSTs one signed Standard Webhooks message: a 2xx answer is success; redirects are not followed
 * (a 3xx is a failure); the whole exchange is bounded by `timeoutMs`.
 */
export function sendWebhook(options: {
  url: string;
  secret: string;
  id: string;
  body: string;
  allowPrivate: boolean;
  timeoutMs: number;
  now?: () => number;
}): Promise<SendResult> {
  const started = Date.now();
  const timestamp = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const done = (status_code: number | null, error: string | null): SendResult => ({
    status_code,
    duration_ms: Date.now() - started,
    error,
  });
  const problem = urlProblem(options.url, options.allowPrivate);
  if (problem) return Promise.resolve(done(null, problem));
  const url = new URL(options.url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      url,
      {
        method: "POST",
        lookup: guardedLookup(options.allowPrivate),
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(options.body),
          "user-agent": "Kasse-Webhooks/1",
          "webhook-id": options.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(options.secret, options.id, timestamp, options.body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // Read (and drop) at most a little of the answer, so the connection closes cleanly.
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) res.destroy();
        });
        const end = () =>
          finish(
            done(
              status,
              status >= 200 && status < 300
                ? null
                : status >= 300 && status < 400
                  ? `HTTP ${status}: redirects are not followed`
                  : `HTTP ${status}`,
            ),
          );
        res.on("end", end);
        res.on("close", end);
        res.on("error", end);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`No answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on("error", (error) => finish(done(null, error.message)));
    req.end(options.body);
  });
}
