/** The smallest files the upload checks take for images: the signatures, then filler. */
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(56, 7)]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
/** The boundary {@link multipartForm} separates its parts with. */
const BOUNDARY = "----kasse-test-boundary";
/** The content type of a {@link multipartForm} body. */
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/**
 * A multipart/form-data body (the dashboard's uploads): each part a file (`filename` set) or a plain field.
 * @example
 * await t.app.inject({ method: "POST", url: "/admin/uploads", headers: { ...admin, "content-type": MULTIPART }, payload: multipartForm([{ name: "files", filename: "a.png", content: PNG }]) });
 */
export function multipartForm(
  parts: Array<{ name: string; filename?: string; type?: string; content: Buffer | string }>,
) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}
