import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

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
      // s3rver's one account.
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
