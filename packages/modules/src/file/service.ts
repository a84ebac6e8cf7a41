import { randomBytes } from "node:crypto";
import { errors, KasseError } from "@kasse/core";
import { lockKeys, transaction } from "@kasse/db";
import { FILE_TYPES, type FileType } from "./shapes";
import { fileQueries as q } from "./queries";
import { UPLOADS_PATH, type FileProvider } from "./local-provider";

/**
 * Upload limits: the size of one file and how many one request may carry; the store's quota,
 * all stored files together, in bytes and in files.
 */
export interface FileLimits {
  maxBytes: number;
  maxFiles: number;
  quotaBytes: number;
  quotaFiles: number;
}

/** Uploads take their turn under this lock, so two of them cannot both fit in the last free space. */
const QUOTA_LOCK = "file:quota";

/** How long a presigned upload URL stays valid, in seconds. */
const PRESIGN_SECONDS = 15 * 60;

/** A presigned upload: the file's key, the URL to PUT its bytes to (for {@link PRESIGN_SECONDS}), its type and extension. */
export interface PresignedUpload {
  id: string;
  url: string;
  mime: string;
  ext: string;
}

/** A stored file's key and the content type it is served with. */
export interface StoredFile {
  id: string;
  mime: string;
}

// `<time>-<random>-<name>.<ext>`: letters, digits, `-` and `_` only, so a key is never a path.
const KEY = /^[0-9a-z]{1,20}-[0-9a-f]{16}-[A-Za-z0-9_-]{0,60}\.(jpg|png|gif|webp|avif)$/;

/** The demo store's pictures Kasse ships, served at its own address (`apps/api/static/demo/`). */
const DEMO_PICTURE = /^\/static\/demo\/[a-z0-9-]{1,60}\.png$/;

/** The type of `content` by its first bytes, or undefined when it is none of {@link FILE_TYPES}. */
export function detectFileType(content: Buffer): FileType | undefined {
  return FILE_TYPES.find((t) => t.magic(content));
}

/**
 * Files: uploads checked for size and type (by content), stored by a provider under a fresh key,
 * each recorded (key, size) so the store's quota holds. `publicUrl` is Kasse's own address now
 * (`PUBLIC_URL`): records keep references to the files served there, answered against it.
 * @example
 * const files = createFileService(createLocalFileProvider({ dir, baseUrl }), { maxBytes: 10 << 20, maxFiles: 10, quotaBytes: 5 << 30, quotaFiles: 50_000 }, "https://api.shop.example");
 * const [stored] = await files.upload([{ filename: "shirt.png", content }]);
 */
export function createFileService(provider: FileProvider, limits: FileLimits, publicUrl: string) {
  const origin = publicUrl.replace(/\/+$/, "");
  const service = {
    limits,
    provider,

    /** What the stored files take: their bytes and their number. */
    usage: q.usage,

    /**
     * Stores each file after checking all of them (one bad file stores none): at most
     * `maxFiles`, each non-empty, at most `maxBytes`, an image of an allowed type, and all of
     * them within what the quota leaves (else 429 `too_many_requests`, nothing stored).
     */
    async upload(files: Array<{ filename: string; content: Buffer }>): Promise<StoredFile[]> {
      if (files.length === 0) throw errors.invalidData("No files were uploaded");
      if (files.length > limits.maxFiles)
        throw errors.invalidData(`At most ${limits.maxFiles} files may be uploaded at once`);
      const checked = files.map((file) => {
        if (file.content.length === 0) throw errors.invalidData(`File ${file.filename} is empty`);
        if (file.content.length > limits.maxBytes)
          throw errors.invalidData(`File ${file.filename} is larger than ${limits.maxBytes} bytes`);
        const type = detectFileType(file.content);
        if (!type)
          throw errors.invalidData(
            `File ${file.filename} is not an image of an allowed type (${FILE_TYPES.map((t) => t.ext).join(", ")})`,
          );
        return { ...file, type };
      });
      const stored: StoredFile[] = [];
      try {
        // The rows and the files in one transaction under the quota's lock: a failure anywhere leaves neither.
        await reserve(
          checked.map((file) => file.content.length),
          async () => {
            for (const file of checked) {
              const id = newKey(file.filename, file.type);
              await q.insert({ id, mime: file.type.mime, size: file.content.length });
              await provider.put(id, file.content, file.type.mime);
              stored.push({ id, mime: file.type.mime });
            }
          },
        );
      } catch (error) {
        // All or nothing: take back what this request already stored.
        await Promise.all(stored.map((s) => provider.remove(s.id).catch(() => false)));
        throw error;
      }
      return stored;
    },

    /**
     * A URL the admin's browser PUTs one file to, straight to the provider (Medusa's presigned
     * upload): its type one of the allowed images, its size declared up front, at most `maxBytes`,
     * within the quota, and signed into the URL, so the provider takes no other size or type. The
     * file counts against the quota from now on (until deleted), uploaded or not.
     * `not_allowed` when the provider cannot presign (the local disk).
     */
    async presignUpload(input: { filename: string; mime: string; size: number }): Promise<PresignedUpload> {
      if (!provider.presignUpload)
        throw errors.notAllowed(
          `The ${provider.id} file provider cannot presign uploads: upload through POST /admin/uploads, or store files in a bucket (FILE_PROVIDER=s3)`,
        );
      const type = FILE_TYPES.find((t) => t.mime === input.mime.trim().toLowerCase());
      if (!type)
        throw errors.invalidData(
          `Invalid file type "${input.mime}": expected one of ${FILE_TYPES.map((t) => t.mime).join(", ")}`,
        );
      if (input.size > limits.maxBytes)
        throw errors.invalidData(`File ${input.filename} is larger than ${limits.maxBytes} bytes`);
      const id = newKey(input.filename, type);
      return reserve([input.size], async () => {
        await q.insert({ id, mime: type.mime, size: input.size });
        const url = await provider.presignUpload!(id, {
          mime: type.mime,
          size: input.size,
          expiresIn: PRESIGN_SECONDS,
        });
        return { id, url, mime: type.mime, ext: type.ext };
      });
    },

    /** Where a stored file is served (the provider's public address for it). */
    urlOf: (id: string): string => provider.url(id),

    /** What a record keeps to name a stored file (see {@link FileProvider.reference}). */
    referenceOf: (id: string): string => provider.reference(id),

    /**
     * What a record keeps for a picture's URL a client sent: the reference of one of the store's
     * files when the URL is where Kasse serves it now (`{PUBLIC_URL}/static/uploads/{key}`, the
     * provider's address of a file whose reference is not that address, a demo picture), else the
     * URL as it is (another site's, a bucket's).
     */
    reference(url: string): string {
      const key = url.slice(url.lastIndexOf("/") + 1);
      if (KEY.test(key)) {
        if (url === `${origin}${UPLOADS_PATH}${key}`) return `${UPLOADS_PATH}${key}`;
        if (url === provider.url(key)) return provider.reference(key);
      }
      const path = url.startsWith(`${origin}/`) ? url.slice(origin.length) : undefined;
      return path !== undefined && DEMO_PICTURE.test(path) ? path : url;
    },

    /**
     * The absolute URL a record's picture is answered with: a reference to one of the store's
     * files (`/static/uploads/{key}`) at the provider's address now, a demo picture's at Kasse's
     * own address now; anything else (an absolute URL) as it is. The one place a stored reference
     * becomes an address (the API applies it to every field marked `FileUrlView`).
     */
    resolve(value: string): string {
      if (!value.startsWith("/static/")) return value;
      if (value.startsWith(UPLOADS_PATH)) {
        const key = value.slice(UPLOADS_PATH.length);
        return KEY.test(key) ? provider.url(key) : value;
      }
      return DEMO_PICTURE.test(value) ? `${origin}${value}` : value;
    },

    /** A stored file to serve, or `not_found`. */
    async open(id: string) {
      const found = KEY.test(id) ? await provider.open(id) : null;
      if (!found) throw errors.notFound(`File with id: ${id} was not found`);
      const ext = id.slice(id.lastIndexOf(".") + 1);
      return { ...found, mime: FILE_TYPES.find((t) => t.ext === ext)!.mime };
    },

    /** Deletes a stored file, or `not_found`; its bytes no longer count against the quota. */
    async delete(id: string): Promise<void> {
      if (!KEY.test(id)) throw errors.notFound(`File with id: ${id} was not found`);
      // A presigned upload that never came has a row and no file: deleting it frees its room.
      const removed = await provider.remove(id);
      const recorded = await q.softDelete({ id });
      if (!removed && !recorded) throw errors.notFound(`File with id: ${id} was not found`);
    },
  };

  /** Runs `store` under the quota's lock once files of these sizes are known to fit, else 429 and nothing runs. */
  function reserve<T>(sizes: number[], store: () => Promise<T>): Promise<T> {
    return transaction(async () => {
      await lockKeys([QUOTA_LOCK]);
      const used = await q.usage();
      const bytes = sizes.reduce((total, size) => total + size, 0);
      if (used.bytes + bytes > limits.quotaBytes || used.files + sizes.length > limits.quotaFiles)
        throw new KasseError(
          "too_many_requests",
          `The store's upload quota (${limits.quotaBytes} bytes, ${limits.quotaFiles} files) leaves no room for this upload: ` +
            `${used.bytes} bytes in ${used.files} files are stored. Delete files, or raise UPLOAD_QUOTA_BYTES / UPLOAD_QUOTA_FILES`,
          { retryable: false },
        );
      return store();
    });
  }
  return service;
}

export type FileService = ReturnType<typeof createFileService>;

/** A fresh key: `<time>-<random>-<name>.<ext>`. */
function newKey(filename: string, type: FileType): string {
  return `${Date.now().toString(36)}-${randomBytes(8).toString("hex")}-${stem(filename)}.${type.ext}`;
}

/** The name without its extension, reduced to letters, digits, `-` and `_` (at most 60). */
function stem(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  return base
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}
