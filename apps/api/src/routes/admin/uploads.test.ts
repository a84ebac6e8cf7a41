import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, JPEG, MULTIPART, multipartForm as form, PNG, type TestApp } from "../../testing";

const dir = mkdtempSync(join(tmpdir(), "kasse-uploads-"));
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({
    PUBLIC_URL: "http://shop.test/",
    FILE_DIR: dir,
    UPLOAD_MAX_BYTES: "2048",
    UPLOAD_MAX_FILES: "3",
  });
  admin = await t.adminHeaders();
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (payload: Buffer, headers: Record<string, string> = admin, contentType = MULTIPART) =>
  t.app.inject({
    method: "POST",
    url: "/admin/uploads",
    headers: { ...headers, "content-type": contentType },
    payload,
  });
const stored = () => readdirSync(dir).sort();

describe("admin uploads", () => {
  it("stores images, answers their ids and urls, and serves them at /static", async () => {
    const res = await upload(
      form([
        { name: "files", filename: "Blue Shirt (front).PNG", type: "image/png", content: PNG },
        { name: "files", filename: "../../etc/passwd.jpg", type: "image/jpeg", content: JPEG },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const files = res.json().files as Array<{ id: string; url: string }>;
    expect(files).toHaveLength(2);
    expect(files[0]!.id).toMatch(/^[0-9a-z]+-[0-9a-f]{16}-Blue-Shirt-front\.png$/);
    expect(files[1]!.id).toMatch(/^[0-9a-z]+-[0-9a-f]{16}-passwd\.jpg$/);
    expect(files[0]!.url).toBe(`http://shop.test/static/uploads/${files[0]!.id}`);
    expect(stored()).toEqual(files.map((f) => f.id).sort());

    const served = await t.app.inject({ method: "GET", url: `/static/uploads/${files[0]!.id}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const one = await t.app.inject({ method: "GET", url: `/admin/uploads/${files[1]!.id}`, headers: { ...admin } });
    expect(one.json()).toEqual({ file: { id: files[1]!.id, url: `http://shop.test/static/uploads/${files[1]!.id}` } });

    const deleted = await t.admin.delete(`/admin/uploads/${files[1]!.id}`);
    expect(deleted.json()).toEqual({ id: files[1]!.id, object: "file", deleted: true });
    expect(stored()).toEqual([files[0]!.id]);
    expect((await t.app.inject({ method: "GET", url: `/static/uploads/${files[1]!.id}` })).statusCode).toBe(404);
    expect((await t.admin.delete(`/admin/uploads/${files[1]!.id}`)).statusCode).toBe(404);
  });

  it("refuses what is not an allowed image, too big, too many, empty, or not multipart, and stores nothing", async () => {
    const before = stored();
    const cases: Array<[string, Buffer, string?]> = [
      [
        "a script named .png",
        form([{ name: "files", filename: "x.png", type: "image/png", content: "<script>alert(1)</script>" }]),
      ],
      [
        "an SVG",
        form([
          {
            name: "files",
            filename: "x.svg",
            type: "image/svg+xml",
            content: "<svg xmlns='http://www.w3.org/2000/svg'/>",
          },
        ]),
      ],
      [
        "one good and one bad file",
        form([
          { name: "files", filename: "ok.png", content: PNG },
          { name: "files", filename: "bad.png", content: "nope" },
        ]),
      ],
      ["an empty file", form([{ name: "files", filename: "empty.png", content: Buffer.alloc(0) }])],
      ["no file at all", form([])],
      ["a text field", form([{ name: "note", content: "hello" }])],
      ["a file in another field", form([{ name: "image", filename: "x.png", content: PNG }])],
      ["JSON", Buffer.from(JSON.stringify({ files: [] })), "application/json"],
    ];
    for (const [label, payload, type] of cases) {
      const res = await upload(payload, admin, type);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().type, label).toBe("invalid_data");
    }
    const tooBig = await upload(
      form([{ name: "files", filename: "big.png", content: Buffer.concat([PNG, Buffer.alloc(4096)]) }]),
    );
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().type).toBe("invalid_data");
    const tooMany = await upload(
      form(Array.from({ length: 4 }, (_, i) => ({ name: "files", filename: `${i}.png`, content: PNG }))),
    );
    expect(tooMany.statusCode).toBe(413);
    expect(stored()).toEqual(before);
  });

  it("requires an admin; unknown or malformed ids are 4xx", async () => {
    expect((await upload(form([{ name: "files", filename: "x.png", content: PNG }]), {})).statusCode).toBe(401);
    expect(
      (await upload(form([{ name: "files", filename: "x.png", content: PNG }]), await t.customerHeaders("cus_1")))
        .statusCode,
    ).toBe(403);
    expect((await t.admin.get("/admin/uploads/nothing.png")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/static/uploads/..%2F..%2Fetc%2Fpasswd" })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: "/static/uploads/jwt-secret" })).statusCode).toBe(404);
  });

  it("cannot presign an upload on the local disk: 403, the admin uploads through POST /admin/uploads", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/admin/uploads/presigned-urls",
      headers: admin,
      payload: { originalname: "x.png", mime_type: "image/png", size: 64 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: "not_allowed",
      message:
        "The local file provider cannot presign uploads: upload through POST /admin/uploads, or store files in a bucket (FILE_PROVIDER=s3)",
    });
  });
});

describe("the store's upload quota", () => {
  const quotaDir = mkdtempSync(join(tmpdir(), "kasse-quota-"));
  let q: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    q = await createTestApp({ FILE_DIR: quotaDir, UPLOAD_QUOTA_BYTES: "200", UPLOAD_QUOTA_FILES: "4" });
    headers = await q.adminHeaders();
  });
  afterAll(async () => {
    await q.close();
    rmSync(quotaDir, { recursive: true, force: true });
  });
  const send = (files: Buffer[]) =>
    q.app.inject({
      method: "POST",
      url: "/admin/uploads",
      headers: { ...headers, "content-type": MULTIPART },
      payload: form(files.map((content, i) => ({ name: "files", filename: `${i}.png`, content }))),
    });
  const inQuota = () => readdirSync(quotaDir).sort();
  const full = (res: Awaited<ReturnType<typeof send>>, what: string) => {
    expect(res.statusCode, what).toBe(429);
    expect(res.json().type, what).toBe("too_many_requests");
    expect(res.json().message, what).toMatch(/upload quota \(200 bytes, 4 files\)/);
  };
  // The smallest file taken for a PNG: its 8-byte signature.
  const TINY = PNG.subarray(0, 8);

  it("refuses an upload past the bytes or the files stored (429), storing none of it; a deletion frees room", async () => {
    const first = await send([PNG, PNG]);
    expect(first.statusCode, first.body).toBe(200);
    const kept = inQuota();
    expect(kept).toHaveLength(2);
    // 128 bytes stored: two more PNGs (256) would pass 200.
    full(await send([PNG, PNG]), "bytes");
    expect(inQuota()).toEqual(kept);
    // Small files: the bytes fit, the number does not (2 + 3 > 4).
    full(await send([TINY, TINY, TINY]), "files");
    expect(inQuota()).toEqual(kept);
    expect((await send([TINY, TINY])).statusCode).toBe(200);
    expect(inQuota()).toHaveLength(4);
    full(await send([TINY]), "files, full");

    // A deleted file gives its room back.
    const id = first.json().files[0].id;
    expect((await q.app.inject({ method: "DELETE", url: `/admin/uploads/${id}`, headers })).statusCode).toBe(200);
    expect((await send([PNG])).statusCode).toBe(200);
    expect(inQuota()).toHaveLength(4);
  });

  it("two uploads racing for the last room: one is stored, the other refused", async () => {
    const ids = inQuota();
    for (const id of ids)
      expect((await q.app.inject({ method: "DELETE", url: `/admin/uploads/${id}`, headers })).statusCode).toBe(200);
    expect((await send([PNG, PNG])).statusCode).toBe(200);
    const raced = await Promise.all([send([PNG]), send([PNG])]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 429]);
    expect(inQuota()).toHaveLength(3);
  });
});
