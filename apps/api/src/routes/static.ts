import { Type } from "@sinclair/typebox";
import type { App } from "../app-type";
import { NoFields } from "../http/schemas";

const Params = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._-]+$" }) },
  { additionalProperties: false },
);

/**
 * `GET /static/uploads/{id}`: uploaded files (beside the demo store's pictures under `/static/`), public (product images are shown in storefronts), served
 * with the type their bytes were recognised as, never sniffed by the browser, cached for a year
 * (a key is never reused).
 */
export default async function staticFiles(app: App): Promise<void> {
  app.get(
    "/static/uploads/:id",
    {
      schema: {
        tags: ["files"],
        params: Params,
        querystring: NoFields,
        response: { 200: Type.Unsafe<Buffer>({ type: "string", format: "binary", description: "The file's bytes" }) },
      },
    },
    async (request, reply) => {
      const file = await app.modules.file.open(request.params.id);
      return reply
        .header("content-type", file.mime)
        .header("content-length", String(file.size))
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(file.stream());
    },
  );
}
