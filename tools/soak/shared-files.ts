import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Verdict } from "./verify";

const repo = join(import.meta.dirname, "../..");
/** The verdict's name. */
export const SHARED_FILES = "a picture uploaded through one API process is served through the other (S3 storage)";

/** One request to one API process (not the round-robin client: which process answers is the point). */
async function call(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get("content-type") };
}

/**
 * With FILE_PROVIDER=s3 every API process serves every file: a picture uploaded through API process
 * `from` is known to API process `to` (same URL), served by it at `/static/uploads/{id}`, and its URL
 * answers the bytes; no process kept it on its own disk (`fileDirs` stay empty).
 */
export async function checkSharedFiles(
  [from, to]: [string, string],
  admin: { email: string; password: string },
  fileDirs: string[],
): Promise<Verdict> {
  const failures: string[] = [];
  const picture = await readFile(join(repo, "apps/api/static/demo/linen-shirt.png"));
  const login = await call(from, "/auth/user/emailpass", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  });
  const authorization = `Bearer ${JSON.parse(login.body.toString()).token as string}`;
  const form = new FormData();
  form.append("files", new Blob([picture], { type: "image/png" }), "soak.png");
  const uploaded = await call(from, "/admin/uploads", { method: "POST", headers: { authorization }, body: form });
  if (uploaded.status !== 200) return { name: SHARED_FILES, failures: [`upload: ${uploaded.status} ${uploaded.body}`] };
  const [file] = JSON.parse(uploaded.body.toString()).files as Array<{ id: string; url: string }>;
  const known = await call(to, `/admin/uploads/${file!.id}`, { headers: { authorization } });
  if (known.status !== 200 || JSON.parse(known.body.toString()).file.url !== file!.url)
    failures.push(`the other API process answered GET /admin/uploads/${file!.id} with ${known.status} ${known.body}`);
  const served = await call(to, `/static/uploads/${file!.id}`);
  if (served.status !== 200 || !served.body.equals(picture))
    failures.push(
      `the other API process served /static/uploads/${file!.id}: ${served.status}, ${served.body.length} bytes`,
    );
  const atUrl = await call(file!.url, "");
  if (atUrl.status !== 200 || !atUrl.body.equals(picture) || atUrl.type !== "image/png")
    failures.push(`its URL ${file!.url} answered ${atUrl.status} ${atUrl.type}, ${atUrl.body.length} bytes`);
  for (const dir of fileDirs) {
    const kept = readdirSync(dir);
    if (kept.length) failures.push(`${dir} holds ${kept.join(", ")}: a file stayed on one machine`);
  }
  return { name: SHARED_FILES, failures };
}
