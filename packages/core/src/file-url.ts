import { Type, type StringOptions, type TSchema } from "@sinclair/typebox";
import { MAX_LENGTH } from "./input";

/** The schema keyword marking a string as the address of a picture: one of the store's own files, or any URL. */
const FILE_URL_KEYWORD = "x-file-url";

/**
 * A picture's URL in a request (a product's thumbnail, its images): any URL, but one of a file
 * Kasse serves itself is stored as the file's reference, never with the address it was given
 * at, so it follows `PUBLIC_URL` (the API's file references, `plugins/file-urls.ts`).
 */
export const FileUrl = (options: StringOptions = {}) =>
  Type.String({ maxLength: MAX_LENGTH.url, ...options, [FILE_URL_KEYWORD]: true });

/** A picture's URL in an answer: a stored reference to one of the store's files is answered as its absolute URL now. */
export const FileUrlView = () => Type.String({ [FILE_URL_KEYWORD]: true });

/** Whether a schema marks a picture's URL ({@link FileUrl}, {@link FileUrlView}). */
export const isFileUrl = (schema: TSchema | Record<string, unknown> | undefined): boolean =>
  (schema as Record<string, unknown> | undefined)?.[FILE_URL_KEYWORD] === true;
