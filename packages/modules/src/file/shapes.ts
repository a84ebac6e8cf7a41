import { Type } from "@sinclair/typebox";

/**
 * The file types an upload may be, recognised by their first bytes (never by the name or the
 * type the client claims), with the extension and content type they are stored and served with.
 * Product images are what the admin uploads; SVG is left out (a script in it would run on Kasse's
 * origin).
 */
export const FILE_TYPES = [
  {
    mime: "image/jpeg",
    ext: "jpg",
    magic: (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    mime: "image/png",
    ext: "png",
    magic: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    mime: "image/gif",
    ext: "gif",
    magic: (b: Buffer) => ["GIF87a", "GIF89a"].includes(b.subarray(0, 6).toString("latin1")),
  },
  {
    mime: "image/webp",
    ext: "webp",
    magic: (b: Buffer) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
  {
    mime: "image/avif",
    ext: "avif",
    magic: (b: Buffer) =>
      b.subarray(4, 8).toString("latin1") === "ftyp" && ["avif", "avis"].includes(b.subarray(8, 12).toString("latin1")),
  },
] as const;

export type FileType = (typeof FILE_TYPES)[number];

/** An uploaded file as the API shows it (Medusa's `{id, url}`). */
export const FileView = Type.Object({
  id: Type.String({ description: "The file's key, used to read or delete it" }),
  url: Type.String({ description: "Where the file is served" }),
});
