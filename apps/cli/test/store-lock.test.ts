import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kasse, startKasse, type RunningKasse } from "./kasse-process";

// Two real `kasse` processes on one embedded data folder: PGlite is one process's database, so
// the second is refused, told who holds it; a holder killed with SIGKILL does not block a restart.

const dataDir = mkdtempSync(join(tmpdir(), "kasse-lock-"));
const env = { KASSE_DATA_DIR: dataDir, ADMIN_UI: "false", SCRYPT_LOG_N: "4" };
const running: RunningKasse[] = [];
afterAll(() => {
  running.forEach((k) => k.child.kill("SIGKILL"));
  rmSync(dataDir, { recursive: true, force: true });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("one process per embedded store", () => {
  it("refuses every other command on the folder in one line naming the holder; a start after SIGKILL succeeds", async () => {
    const first = await startKasse(env);
    running.push(first);
    const refusal = new RegExp(
      `^The embedded store in ${escaped(dataDir)} is in use by kasse start on ${escaped(first.url)} ` +
        `\\(pid ${first.child.pid}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): stop that process first, or give this one another KASSE_DATA_DIR\\.$`,
    );
    const refused = await Promise.all(
      [["start"], ["migrate"], ["check"], ["seed"]].map((args) =>
        kasse(args, { ...env, PORT: "0", HOST: "127.0.0.1" }),
      ),
    );
    for (const [i, result] of refused.entries()) {
      expect(result.stderr.trim(), `command ${i}`).toMatch(refusal);
      expect(result.code, `command ${i}`).not.toBe(0);
      expect(result.stdout, `command ${i}`).not.toMatch(/listening|Migrations applied|checks|seeded/);
    }
    // The holder is untouched and serves on.
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);

    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(join(dataDir, "kasse.lock"))).toBe(true);
    // Its lock is stale: the next start takes it over, serves the same store, and removes it on a clean stop.
    const second = await startKasse(env);
    running.push(second);
    expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
    const stopped = await second.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(existsSync(join(dataDir, "kasse.lock"))).toBe(false);
  }, 180_000);
});
