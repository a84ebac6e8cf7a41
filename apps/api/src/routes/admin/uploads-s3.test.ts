import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDatabase } from "@kasse/db";
import {
  createTestApp,
  MULTIPART,
  multipartForm,
  PNG,
  startS3Server,
  startSignatureCheckingProxy,
  type S3Server,
  type TestApp,
} from "../../testing";

// Uploads stored in an S3-compatible bucket (FILE_PROVIDER=s3), against a real S3 server (s3rver).
let s3: S3Server;
let t: TestApp;
let admin: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "kasse-s3-local-"));
beforeAll(async () => {
  s3 = await startS3Server();
  // FILE_DIR is set, and stays empty: the files go to the bucket.
  t = await createTestApp({
    ...s3.env,
    FILE_DIR: dir,
    UPLOAD_MAX_BYTES: "2048",
    UPLOAD_QUOTA_BYTES: "400",
    UPLOAD_QUOTA_FILES: "5",
  });
  admin = await t.adminHeaders();
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (files: Buffer[], app = t, headers = admin) =>
  app.app.inject({
    method: "POST",
    url: "/admin/uploads",
    headers: { ...headers, "content-type": MULTIPART },
    payload: multipartForm(files.map((content, i) => ({ name: "files", filename: `shirt ${i}.png`, content }))),
  });
const presign = (body: unknown, headers = admin, app = t) =>
  app.app.inject({ method: "POST", url: "/admin/uploads/presigned-urls", headers, payload: body as object });
const usage = (app = t) => onDatabase(app.database.db, () => app.app.modules.file.usage());

describe("uploads to an S3 bucket", () => {
  it("stores through the admin route, serves from the bucket's URL, deletes", async () => {
    const res = await upload([PNG]);
    expect(res.statusCode, res.body).toBe(200);
    const [file] = res.json().files as Array<{ id: string; url: string }>;
    expect(file!.id).toMatch(/^[0-9a-z]+-[0-9a-f]{16}-shirt-0\.png$/);
    expect(file!.url).toBe(`${s3.endpoint}/${s3.bucket}/${file!.id}`);
    const served = await fetch(file!.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);

    expect((await t.admin.get(`/admin/uploads/${file!.id}`)).json()).toEqual({ file });
    // Kasse's own address for it serves the same bytes (from the bucket).
    const proxied = await t.app.inject({ method: "GET", url: `/static/uploads/${file!.id}` });
    expect(proxied.rawPayload.equals(PNG)).toBe(true);

    expect((await t.admin.delete(`/admin/uploads/${file!.id}`)).json()).toEqual({
      id: file!.id,
      object: "file",
      deleted: true,
    });
    expect((await fetch(file!.url)).status).toBe(404);
    expect((await t.admin.delete(`/admin/uploads/${file!.id}`)).statusCode).toBe(404);
    expect(await usage()).toEqual({ bytes: 0, files: 0 });
  });

  it("presigns an upload the browser PUTs straight to the bucket, its type and size signed into the URL", async () => {
    const res = await presign({ originalname: "Front view.png", mime_type: "image/png", size: PNG.length });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toEqual({
      url: expect.stringContaining(`${s3.endpoint}/${s3.bucket}/`),
      filename: expect.stringMatching(/^[0-9a-z]+-[0-9a-f]{16}-Front-view\.png$/),
      originalname: "Front view.png",
      mime_type: "image/png",
      extension: "png",
      size: PNG.length,
    });
    const url = new URL(answer.url);
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(
      expect.arrayContaining(["content-length", "content-type", "host"]),
    );
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBe(900);
    // No checksum of an empty body is signed in (it would refuse every upload on AWS).
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    // The declared size counts against the quota at once.
    expect(await usage()).toEqual({ bytes: PNG.length, files: 1 });

    const put = await fetch(answer.url, { method: "PUT", headers: { "content-type": "image/png" }, body: PNG });
    expect(put.status).toBe(200);
    const { file } = (await t.admin.get(`/admin/uploads/${answer.filename}`)).json();
    expect(file.url).toBe(`${s3.endpoint}/${s3.bucket}/${answer.filename}`);
    const served = await fetch(file.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // A presigned upload that never came is deleted like any file, and frees its room.
    const unused = (await presign({ originalname: "later.jpg", mime_type: "image/jpeg", size: 100 })).json();
    expect(await usage()).toEqual({ bytes: PNG.length + 100, files: 2 });
    expect((await t.admin.delete(`/admin/uploads/${unused.filename}`)).statusCode).toBe(200);
    expect((await t.admin.delete(`/admin/uploads/${answer.filename}`)).statusCode).toBe(200);
    expect(await usage()).toEqual({ bytes: 0, files: 0 });
  });

  it("holds the quota for uploads and presigned uploads alike (429, nothing stored or signed)", async () => {
    expect((await upload([PNG, PNG, PNG])).statusCode).toBe(200); // 192 of 400 bytes, 3 of 5 files
    const before = await usage();
    const tooBig = await presign({ originalname: "big.png", mime_type: "image/png", size: 400 - before.bytes + 1 });
    expect(tooBig.statusCode).toBe(429);
    expect(tooBig.json().type).toBe("too_many_requests");
    expect(await usage()).toEqual(before);
    expect(
      (await presign({ originalname: "fits.png", mime_type: "image/png", size: 400 - before.bytes })).statusCode,
    ).toBe(200);
    expect((await upload([PNG])).statusCode).toBe(429);
    expect(await usage()).toEqual({ bytes: 400, files: 4 });
  });

  it("refuses bad presigned requests with a 4xx, signing nothing", async () => {
    const before = await usage();
    const cases: Array<[string, unknown, number, string]> = [
      ["an SVG", { originalname: "x.svg", mime_type: "image/svg+xml", size: 10 }, 400, "invalid_data"],
      ["HTML", { originalname: "x.html", mime_type: "text/html", size: 10 }, 400, "invalid_data"],
      ["not a type", { originalname: "x", mime_type: "png", size: 10 }, 400, "invalid_data"],
      ["empty", { originalname: "x.png", mime_type: "image/png", size: 0 }, 400, "invalid_data"],
      ["over the upload limit", { originalname: "x.png", mime_type: "image/png", size: 2049 }, 400, "invalid_data"],
      ["fractional", { originalname: "x.png", mime_type: "image/png", size: 1.5 }, 400, "invalid_data"],
      ["private", { originalname: "x.png", mime_type: "image/png", size: 10, access: "private" }, 400, "invalid_data"],
      ["no name", { mime_type: "image/png", size: 10 }, 400, "invalid_data"],
      [
        "an unknown field",
        { originalname: "x.png", mime_type: "image/png", size: 10, bucket: "b" },
        400,
        "invalid_data",
      ],
    ];
    for (const [label, body, status, type] of cases) {
      const res = await presign(body);
      expect(res.statusCode, label).toBe(status);
      expect(res.json().type, label).toBe(type);
    }
    expect((await presign({ originalname: "x.png", mime_type: "image/png", size: 10 }, {})).statusCode).toBe(401);
    expect(await usage()).toEqual(before);
  });
});

describe("presigned uploads at a server that checks signatures as S3 does", () => {
  it("takes the declared size and type, and refuses a larger or differently typed body (403), storing nothing", async () => {
    const strict = await startSignatureCheckingProxy(s3);
    const shop = await createTestApp({ ...strict.env, UPLOAD_MAX_BYTES: "2048" });
    try {
      const headers = await shop.adminHeaders();
      const sign = async (size: number) => {
        const res = await presign({ originalname: "front.png", mime_type: "image/png", size }, headers, shop);
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json() as { url: string; filename: string };
        expect(answer.url.startsWith(`${strict.endpoint}/${s3.bucket}/`)).toBe(true);
        expect(new URL(answer.url).searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(
          expect.arrayContaining(["content-length", "content-type"]),
        );
        return answer;
      };
      // What is in the bucket, read from s3rver itself.
      const stored = (key: string) => fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
      const put = (url: string, body: Buffer, type = "image/png") =>
        fetch(url, { method: "PUT", headers: { "content-type": type }, body });

      const exact = await sign(PNG.length);
      const accepted = await put(exact.url, PNG);
      expect(accepted.status, await accepted.text()).toBe(200);
      expect(Buffer.from(await (await stored(exact.filename)).arrayBuffer()).equals(PNG)).toBe(true);

      const declared = await sign(PNG.length);
      const larger = await put(declared.url, Buffer.concat([PNG, Buffer.alloc(1000, 1)]));
      expect(larger.status).toBe(403);
      expect(await larger.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
      const smaller = await put(declared.url, PNG.subarray(0, PNG.length - 1));
      expect(smaller.status).toBe(403);
      const retyped = await put(declared.url, PNG.subarray(0, PNG.length), "text/html");
      expect(retyped.status).toBe(403);
      expect(await retyped.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
      // A URL changed after signing (a longer validity) is refused the same way.
      const stretched = new URL(declared.url);
      stretched.searchParams.set("X-Amz-Expires", "604800");
      expect((await put(stretched.toString(), PNG)).status).toBe(403);
      expect(strict.refused).toBe(4);
      expect((await stored(declared.filename)).status).toBe(404);
      // The same URL with the body it was signed for still works: it was the body that was refused.
      expect((await put(declared.url, PNG)).status).toBe(200);
      expect((await stored(declared.filename)).status).toBe(200);
    } finally {
      await shop.close();
      await strict.close();
    }
  });
});

describe("the bucket's addresses", () => {
  it("puts S3_PREFIX before each key and serves from FILE_BASE_URL (a CDN)", async () => {
    const cdn = await createTestApp({ ...s3.env, S3_PREFIX: "shop/images/", FILE_BASE_URL: "https://cdn.shop.test/" });
    try {
      const res = await upload([PNG], cdn, await cdn.adminHeaders());
      const [file] = res.json().files as Array<{ id: string; url: string }>;
      expect(file!.url).toBe(`https://cdn.shop.test/shop/images/${file!.id}`);
      const inBucket = await fetch(`${s3.endpoint}/${s3.bucket}/shop/images/${file!.id}`);
      expect(Buffer.from(await inBucket.arrayBuffer()).equals(PNG)).toBe(true);
    } finally {
      await cdn.close();
    }
  });

  it("fails fast with a clear 502 when the storage cannot be reached, and counts nothing", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await createTestApp({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const headers = await down.adminHeaders();
      const before = await usage(down);
      const started = Date.now();
      const res = await upload([PNG], down, headers);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        type: "provider_error",
        message: `File storage at http://127.0.0.1:${port} (bucket ${s3.bucket}) failed to store a file: ECONNREFUSED`,
      });
      expect(await usage(down)).toEqual(before);
    } finally {
      await down.close();
    }
  });
});
