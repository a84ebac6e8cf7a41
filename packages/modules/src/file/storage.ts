import { createLocalFileProvider, type FileProvider } from "./local-provider";
import { createS3FileProvider, type S3Storage } from "./s3-provider";

/** Where the store's files go (`FILE_PROVIDER`): the local disk, or an S3-compatible bucket. */
export type FileStorage = { provider: "local"; dir: string; baseUrl: string } | ({ provider: "s3" } & S3Storage);

/**
 * The provider for `storage`.
 * @example
 * const provider = createFileProvider({ provider: "local", dir: ".kasse/uploads", baseUrl: "http://localhost:9000/static/uploads" });
 */
export function createFileProvider(storage: FileStorage): FileProvider {
  return storage.provider === "s3" ? createS3FileProvider(storage) : createLocalFileProvider(storage);
}
