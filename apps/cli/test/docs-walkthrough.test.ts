import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { startKasse, type RunningKasse } from "./kasse-process";

// docs/checkout.md's walkthrough is a script; it runs here as a reader runs it, against a fresh
// embedded `kasse start`, and the page must show the script as it is.

const root = fileURLToPath(new URL("../../..", import.meta.url));
const script = join(root, "docs/checkout-walkthrough.sh");
const dataDir = mkdtempSync(join(tmpdir(), "kasse-walkthrough-"));
let kasse: RunningKasse | undefined;
afterAll(async () => {
  await kasse?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it("docs/checkout.md shows the walkthrough script as it is", () => {
  const page = readFileSync(join(root, "docs/checkout.md"), "utf8");
  expect(page).toContain(
    "<!-- included: docs/checkout-walkthrough.sh -->\n\n```sh\n" + readFileSync(script, "utf8") + "```\n",
  );
});

it("the walkthrough creates a product, is refused until it is stocked, and places an order", async () => {
  const admin = { KASSE_ADMIN_EMAIL: "walker@example.com", KASSE_ADMIN_PASSWORD: "walkthrough-pass" };
  kasse = await startKasse({ KASSE_DATA_DIR: dataDir, ADMIN_UI: "false", SCRYPT_LOG_N: "4", ...admin });
  const { stdout } = await promisify(execFile)("bash", [script], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      KASSE_URL: kasse.url,
      ADMIN_EMAIL: admin.KASSE_ADMIN_EMAIL,
      ADMIN_PASSWORD: admin.KASSE_ADMIN_PASSWORD,
    },
    timeout: 120_000,
  });
  expect(stdout).toMatch(/^Before stocking: Insufficient inventory for variant variant_\S+: 1 requested$/m);
  expect(stdout).toMatch(/^Cart total with shipping: 2300 usd$/m);
  expect(stdout).toMatch(/^Order order_\S+ \(#1\) placed: 2300 usd, payment authorized$/m);
}, 240_000);
