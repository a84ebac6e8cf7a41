import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import { Code, Count, errors, Title } from "@kasse/core";
import { FileView } from "@kasse/modules/file";
import type { App } from "../../app-type";
import { Deleted, deleted, NoFields } from "../../http/schemas";

// Keys are `<time>-<random>-<name>.<ext>`; anything else is not a file Kasse stored.
const Params = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._-]+$" }) },
  { additionalProperties: false },
);
/** The one multipart field an upload carries (the dashboard appends each file as `files`). */
const FIELD = "files";

/** Medusa's presigned upload request: the file's name, type and size, declared before its bytes are sent. */
const PresignedUrlBody = Type.Object(
  {
    originalname: Title({ minLength: 1, description: "The file's name on the admin's computer" }),
    mime_type: Code({ minLength: 1, description: "The file's type: an image (jpeg, png, gif, webp, avif)" }),
    size: Count({ minimum: 1, description: "The file's size in bytes: the upload must be exactly this long" }),
    access: Type.Optional(
      Type.Union([Type.Literal("public"), Type.Literal("private")], {
        description: "Kasse's files are public (product images): `private` is refused",
      }),
    ),
  },
  { additionalProperties: false },
);
const PresignedUrlView = Type.Object(
  {
    url: Type.String({
      description: "PUT the file's bytes here, with its Content-Type and Content-Length as declared",
    }),
    filename: Type.String({ description: "The file's key (its id in GET/DELETE /admin/uploads/{id})" }),
    originalname: Type.String(),
    mime_type: Type.String(),
    extension: Type.String(),
    size: Type.Integer(),
  },
  { description: "Where to upload the file" },
);

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
        querystring: NoFields,
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
      return { files: stored.map((f) => ({ id: f.id, url: app.modules.file.urlOf(f.id) })) };
    },
  );

  app.get(
    "/uploads/:id",
    {
      schema: {
        params: Params,
        querystring: NoFields,
        response: { 200: Type.Object({ file: FileView }, { description: "The file" }) },
      },
    },
    async (request) => {
      const found = await app.modules.file.open(request.params.id);
      found.stream().destroy();
      return { file: { id: request.params.id, url: app.modules.file.urlOf(request.params.id) } };
    },
  );

  // Medusa's presigned upload: the browser PUTs the bytes straight to the bucket. The local disk
  // cannot presign: 403 `not_allowed`, and the admin uploads through POST /admin/uploads.
  app.post(
    "/uploads/presigned-urls",
    {
      schema: {
        description: `A URL to PUT one image to, straight to the file storage (FILE_PROVIDER=s3; the local provider answers 403). The size is declared here and signed into the URL (at most ${maxBytes} bytes), and counts against the store's quota from now on`,
        body: PresignedUrlBody,
        querystring: NoFields,
        response: { 200: PresignedUrlView },
      },
    },
    async (request) => {
      const { originalname, mime_type, size, access } = request.body;
      if (access === "private")
        throw errors.invalidData("Kasse stores public files only (product images): omit access or send public");
      const upload = await app.modules.file.presignUpload({ filename: originalname, mime: mime_type, size });
      return {
        url: upload.url,
        filename: upload.id,
        originalname,
        mime_type: upload.mime,
        extension: upload.ext,
        size,
      };
    },
  );

  app.delete("/uploads/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await app.modules.file.delete(request.params.id);
    return deleted(request.params.id, "file");
  });
}
