import { createReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";

/** Where uploaded files are kept: the local disk (the default) or an S3-compatible bucket. */
export interface FileProvider {
  readonly id: string;
  /** Stores `content` under `key` (a name already checked by the service: no path separators), served as `mime`. */
  put(key: string, content: Buffer, mime: string): Promise<void>;
  /** The stored file, or null when there is none. */
  open(key: string): Promise<{ size: number; stream: () => Readable } | null>;
  /** Removes the file; true when there was one. */
  remove(key: string): Promise<boolean>;
  /** The public address the file is served at. */
  url(key: string): string;
  /**
   * What a record (a product's thumbnail) keeps to name the file: a reference answered through
   * `url` at the time of the answer when the address may change (files Kasse serves itself), the
   * lasting address otherwise (a bucket's).
   */
  reference(key: string): string;
  /**
   * A URL the client PUTs the file's bytes to directly, valid for `expiresIn` seconds, that takes
   * exactly `size` bytes of type `mime`; absent when the provider cannot presign (the local disk).
   */
  presignUpload?(key: string, upload: { mime: string; size: number; expiresIn: number }): Promise<string>;
}

/** Where Kasse serves uploaded files, on its own address: also the reference a record keeps to one of them. */
export const UPLOADS_PATH = "/static/uploads/";

/**
 * The default provider: files on the local disk, in `dir` (created on first upload). Kasse serves
 * them itself at `/static/uploads/{key}`, and `baseUrl` is that address as browsers reach it.
 * @example
 * const provider = createLocalFileProvider({ dir: "/var/lib/kasse/uploads", baseUrl: "https://api.shop.example/static/uploads" });
 */
export function createLocalFileProvider(options: { dir: string; baseUrl: string }): FileProvider {
  const path = (key: string) => join(options.dir, key);
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    id: "local",
    async put(key, content) {
      await mkdir(options.dir, { recursive: true });
      // `wx`: a key is never overwritten (keys are unique; a clash is a bug, not a replace).
      await writeFile(path(key), content, { flag: "wx", mode: 0o644 });
    },
    async open(key) {
      try {
        const info = await stat(path(key));
        if (!info.isFile()) return null;
        return { size: info.size, stream: () => createReadStream(path(key)) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(key) {
      const existing = await this.open(key);
      if (!existing) return false;
      await rm(path(key), { force: true });
      return true;
    },
    url: (key) => `${base}/${encodeURIComponent(key)}`,
    // Kasse serves these at its own address (`PUBLIC_URL`), which may change: keep its path only.
    reference: (key) => `${UPLOADS_PATH}${encodeURIComponent(key)}`,
  };
}
