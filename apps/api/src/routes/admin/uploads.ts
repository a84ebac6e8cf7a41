import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import { errors } from "@kasse/core";
import { FileView } from "@kasse/modules/file";
import type { App } from "../../app-type";
import { Deleted, deleted } from "../../http/schemas";

// Keys are `<time>-<random>-<name>.<ext>`; anything else is not a file Kasse stored.
const Params = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._-]+$" }) },
  { additionalProperties: false },
);
const NoQuery = Type.Object({}, { additionalProperties: false });
/** The one multipart field an upload carries (the dashboard appends each file as `files`). */
const FIELD = "files";

/** Where a stored file is served: `FILE_BASE_URL`, else `{PUBLIC_URL}/static/uploads` (never the request's Host header). */
function fileUrl(app: App, id: string): string {
  return `${app.config.files.baseUrl}/${encodeURIComponent(id)}`;
}

/**
 * Admin uploads (Medusa's `POST /admin/uploads`, `GET/DELETE /admin/uploads/{id}`): product images
 * sent as `multipart/form-data`, field `files` (one or more). Each is checked by the file module
 * (size, count, an image by its bytes, the store's quota) and stored by its provider (local disk
 * by default); the answer names each file's `id` and the `url` it is served at.
 */
export default async function uploads(app: App): Promise<void> {
  const { maxBytes, maxFiles } = app.config.files;
  // Scoped to this plugin: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: maxBytes,
      files: maxFiles,
      fields: 5,
      parts: maxFiles + 5,
      fieldNameSize: 100,
      headerPairs: 100,
    },
    throwFileSizeLimit: true,
  });

  app.post(
    "/uploads",
    {
      schema: {
        consumes: ["multipart/form-data"],
        description: `Multipart form data: one or more \`${FIELD}\` parts, each an image (jpg, png, gif, webp, avif) of at most ${maxBytes} bytes; at most ${maxFiles} files. All stored files together stay within the store's quota (UPLOAD_QUOTA_BYTES, UPLOAD_QUOTA_FILES): past it, 429 and nothing stored`,
        querystring: NoQuery,
        response: { 200: Type.Object({ files: Type.Array(FileView) }, { description: "The stored files" }) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw errors.invalidData("Upload files as multipart/form-data, in the `files` field");
      const files: Array<{ filename: string; content: Buffer }> = [];
      for await (const part of request.parts()) {
        if (part.type !== "file" || part.fieldname !== FIELD)
          throw errors.invalidData(`Unexpected field '${part.fieldname}': send files in the \`${FIELD}\` field`);
        files.push({ filename: part.filename, content: await part.toBuffer() });
      }
      const stored = await app.modules.file.upload(files);
      return { files: stored.map((f) => ({ id: f.id, url: fileUrl(app, f.id) })) };
    },
  );

  app.get(
    "/uploads/:id",
    {
      schema: {
        params: Params,
        querystring: NoQuery,
        response: { 200: Type.Object({ file: FileView }, { description: "The file" }) },
      },
    },
    async (request) => {
      const found = await app.modules.file.open(request.params.id);
      found.stream().destroy();
      return { file: { id: request.params.id, url: fileUrl(app, request.params.id) } };
    },
  );

  app.delete("/uploads/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await app.modules.file.delete(request.params.id);
    return deleted(request.params.id, "file");
  });
}
