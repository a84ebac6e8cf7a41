import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignatureV4 } from "@smithy/signature-v4";
import S3rver from "s3rver";

/** s3rver's one account: its access key id and secret are both this. */
const S3RVER_KEY = "S3RVER";

/** A running S3-compatible server and what a Kasse process needs to store files in its bucket. */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The environment of `FILE_PROVIDER=s3` on this server's bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts an S3-compatible server (s3rver) on a free loopback port, its data in a temporary folder,
 * with one empty bucket; `close` stops it and removes its data.
 * @example
 * const s3 = await startS3Server();
 * const t = await createTestApp(s3.env);
 */
export async function startS3Server(bucket = "kasse-test"): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "kasse-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { address, port } = await server.run();
  const endpoint = `http://${address}:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      FILE_PROVIDER: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** SHA-256 (or its HMAC with `secret`) in the shape the SigV4 signer takes, on Node's crypto. */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(this.secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): Buffer =>
  typeof data === "string"
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** The query parameters SigV4 adds to a presigned URL (besides the headers it hoists into it). */
const PRESIGN_PARAMS = [
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Signature",
];

/** S3's answer to a request whose signature does not match. */
function refuse(response: ServerResponse, code: string, message: string): void {
  response.writeHead(403, { "content-type": "application/xml" });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

/**
 * Whether a presigned request carries the signature its URL claims, computed as S3 does: over the
 * headers the URL names in `X-Amz-SignedHeaders`, with the values this request actually has
 * (a body of another length than signed has another `content-length`), by the SDK's own signer.
 */
async function presignedSignatureMatches(request: IncomingMessage, url: URL): Promise<boolean> {
  const q = url.searchParams;
  const [accessKeyId, date, region, service] = (q.get("X-Amz-Credential") ?? "").split("/");
  const signed = (q.get("X-Amz-SignedHeaders") ?? "").split(";");
  const headers: Record<string, string> = {};
  for (const name of signed) {
    const value = request.headers[name];
    if (value === undefined) return false;
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  // Other `X-Amz-*` parameters were headers when the URL was signed (the payload hash), hoisted into the query.
  const query: Record<string, string> = {};
  for (const [key, value] of q)
    if (PRESIGN_PARAMS.includes(key)) continue;
    else if (key.startsWith("X-Amz-")) headers[key] = value;
    else query[key] = value;
  const longDate = q.get("X-Amz-Date") ?? "";
  const signingDate = new Date(
    `${longDate.slice(0, 4)}-${longDate.slice(4, 6)}-${longDate.slice(6, 8)}T${longDate.slice(9, 11)}:${longDate.slice(11, 13)}:${longDate.slice(13, 15)}Z`,
  );
  if (accessKeyId !== S3RVER_KEY || !date || !region || Number.isNaN(signingDate.getTime())) return false;
  const expiresIn = Number(q.get("X-Amz-Expires"));
  if (!(Date.now() <= signingDate.getTime() + expiresIn * 1000)) return false;
  const signer = new SignatureV4({
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    region,
    service: service ?? "s3",
    sha256: Sha256,
    // S3 signs the path as sent, without encoding it again.
    uriEscapePath: false,
  });
  const again = await signer.presign(
    {
      method: request.method ?? "GET",
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query,
      headers,
    },
    { signingDate, expiresIn, signableHeaders: new Set(signed) },
  );
  return again.query?.["X-Amz-Signature"] === q.get("X-Amz-Signature");
}

/**
 * A proxy in front of `s3` that checks presigned requests' SigV4 signatures as S3 does (s3rver
 * does not): a presigned request whose signature does not match the request it came with (another
 * size or type than signed, a changed URL, an expired one) is answered 403 `SignatureDoesNotMatch`
 * and never reaches the bucket; every other request is passed on as it is.
 * @example
 * const strict = await startSignatureCheckingProxy(s3);
 * const t = await createTestApp(strict.env);
 */
export async function startSignatureCheckingProxy(s3: S3Server): Promise<S3Server & { refused: number }> {
  const target = new URL(s3.endpoint);
  const state = { refused: 0 };
  const server = createHttpServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
      if (url.searchParams.has("X-Amz-Signature") && !(await presignedSignatureMatches(request, url))) {
        state.refused++;
        // The body is read and dropped, as S3 does before it answers.
        request.resume();
        request.on("end", () =>
          refuse(
            response,
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided.",
          ),
        );
        return;
      }
      const forwarded = httpRequest(
        {
          hostname: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on("error", () => response.destroy());
      request.pipe(forwarded);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    bucket: s3.bucket,
    env: { ...s3.env, S3_ENDPOINT: endpoint },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
