import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { errors } from "@kasse/core";
import type { FileProvider } from "./local-provider";

/** Where an S3-compatible bucket is and how to reach it (`S3_*`, `FILE_BASE_URL`). */
export interface S3Storage {
  bucket: string;
  region: string;
  /** The service's address for MinIO, R2 and the like; AWS's own by default. */
  endpoint?: string;
  /** Without them, the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `{endpoint}/{bucket}/{key}` rather than `{bucket}.{endpoint host}/{key}` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** Put before every key in the bucket, e.g. `kasse/`. */
  prefix: string;
  /** The public address of the bucket (a CDN in front of it); by default the bucket's own address. */
  baseUrl?: string;
  /** How long a connection may take to open, and a request to be answered, in milliseconds. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** The bucket's own public address: path style under the endpoint, else the bucket's virtual host. */
function bucketUrl(s: S3Storage): string {
  if (s.endpoint) {
    const endpoint = new URL(s.endpoint);
    const root = `${endpoint.protocol}//${s.forcePathStyle ? "" : `${s.bucket}.`}${endpoint.host}${endpoint.pathname.replace(/\/+$/, "")}`;
    return s.forcePathStyle ? `${root}/${s.bucket}` : root;
  }
  return `https://${s.bucket}.s3.${s.region}.amazonaws.com`;
}

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …): every API process reaches the
 * same files, and browsers load them from the bucket or the CDN at `baseUrl`. A request that cannot
 * reach the service fails within the timeouts as `provider_error`, never hangs.
 * @example
 * const provider = createS3FileProvider({ bucket: "shop", region: "auto", endpoint: "https://<account>.r2.cloudflarestorage.com", forcePathStyle: false, prefix: "" });
 */
export function createS3FileProvider(storage: S3Storage): FileProvider {
  const client = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials:
      storage.accessKeyId && storage.secretAccessKey
        ? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: a presigned URL carrying a checksum of no bytes would
    // refuse every upload, and MinIO, R2 and older servers do not all speak the newer checksum trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: storage.connectTimeoutMs ?? 3_000,
      requestTimeout: storage.requestTimeoutMs ?? 30_000,
      // Else a request past its timeout only logs a warning and goes on waiting.
      throwOnRequestTimeout: true,
    },
  });
  const where = storage.endpoint ? `${storage.endpoint} (bucket ${storage.bucket})` : `bucket ${storage.bucket}`;
  const objectKey = (key: string) => `${storage.prefix}${key}`;
  const base = (storage.baseUrl ?? bucketUrl(storage)).replace(/\/+$/, "");

  /** Runs one call to the service; a failure says which storage and why, as `provider_error`. */
  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const reason =
        error instanceof S3ServiceException
          ? `${error.name} (${error.$metadata.httpStatusCode ?? "no status"})`
          : ((error as NodeJS.ErrnoException).code ?? (error as Error).name ?? "error");
      throw errors.provider(`File storage at ${where} failed to ${what}: ${reason}`, { cause: error });
    }
  }
  const isMissing = (error: unknown) =>
    error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NotFound");

  const urlOf = (key: string) => `${base}/${objectKey(key).split("/").map(encodeURIComponent).join("/")}`;

  return {
    id: "s3",
    async put(key, content, mime) {
      await call("store a file", () =>
        client.send(
          new PutObjectCommand({
            Bucket: storage.bucket,
            Key: objectKey(key),
            Body: content,
            ContentType: mime,
            ContentLength: content.length,
            // Keys are never reused, so a file may be cached for good.
            CacheControl: "public, max-age=31536000, immutable",
          }),
        ),
      );
    },
    async open(key) {
      try {
        const found = await client.send(new GetObjectCommand({ Bucket: storage.bucket, Key: objectKey(key) }));
        const body = found.Body as Readable;
        return { size: found.ContentLength ?? 0, stream: () => body };
      } catch (error) {
        if (isMissing(error)) return null;
        return call("read a file", () => Promise.reject(error));
      }
    },
    async remove(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: objectKey(key) }));
      } catch (error) {
        if (isMissing(error)) return false;
        return call("find a file", () => Promise.reject(error));
      }
      await call("delete a file", () =>
        client.send(new DeleteObjectCommand({ Bucket: storage.bucket, Key: objectKey(key) })),
      );
      return true;
    },
    url: urlOf,
    // The bucket's (or FILE_BASE_URL's) address does not depend on where Kasse is served: kept as it is.
    reference: urlOf,
    async presignUpload(key, upload) {
      // Content-Length and Content-Type are signed: the service refuses a body of any other size or type.
      return call("presign an upload", () =>
        getSignedUrl(
          client,
          new PutObjectCommand({
            Bucket: storage.bucket,
            Key: objectKey(key),
            ContentType: upload.mime,
            ContentLength: upload.size,
          }),
          { expiresIn: upload.expiresIn, signableHeaders: new Set(["content-type", "content-length"]) },
        ),
      );
    },
  };
}
