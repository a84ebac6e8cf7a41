import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { loadE2eConfig } from "./config";
import { startKasse, type RunningKasse } from "./kasse";
import { startMailbox, type Mailbox } from "./mailbox";
import { stopAll, stopOnSignals } from "./processes";
import { startRecorder, type Recorder } from "./recorder";
import { writeReport } from "./report";
import { BY_DESIGN, refusals, Runner, type StepOutcome } from "./runner";
import { freePort, prepareStorefront, startStorefront, storefrontSource, storefrontUrl } from "./storefront";
import { browse } from "./journeys/browse";
import { cart, PROMO_CODE } from "./journeys/cart";
import { customer } from "./journeys/customer";
import { guestCheckout } from "./journeys/guest-checkout";
import { orderTransfer } from "./journeys/order-transfer";
import { orderEdit } from "./journeys/order-edit";

// `npm run test:e2e`: Medusa's published storefront, built against a Kasse started here, driven in Chromium.

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

const started = performance.now();

async function main(): Promise<number> {
  const config = loadE2eConfig();
  const artifacts = join(config.workDir, "artifacts");
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  stopOnSignals();

  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    console.log(`→ ${name}`);
    try {
      return await run();
    } finally {
      phases[name] = Math.round(performance.now() - at);
    }
  };

  let mailbox: Mailbox | undefined;
  let kasse: RunningKasse | undefined;
  let recorder: Recorder | undefined;
  let browser: Browser | undefined;
  try {
    mailbox = await startMailbox();
    // The storefront's port is chosen first: Kasse links to the storefront in its emails (STOREFRONT_URL).
    const storefrontPort = await freePort();
    kasse = await phase("kasse (seed + start)", () =>
      startKasse(config, {
        logFile: join(artifacts, "kasse.log"),
        smtpUrl: mailbox!.url,
        storefrontUrl: storefrontUrl(storefrontPort),
      }),
    );
    recorder = await startRecorder(config.backendPort, new URL(kasse.url));
    const backendUrl = `${recorder.url}${config.basePath}`;
    console.log(`  Kasse ${kasse.url}; the storefront talks to it through ${backendUrl} (recorded)`);

    recorder.mark("storefront build");
    const outcomes: StepOutcome[] = [];
    // `next build` renders pages against Kasse; what it was refused belongs in the report too.
    const buildRefusals = () =>
      refusals(
        recorder!.exchanges.filter((e) => e.step === "storefront build"),
        (e) => e.url.split("?")[0]!.slice(config.basePath.length),
        BY_DESIGN,
      );
    const storefront = await phase("storefront install + build", () =>
      prepareStorefront(config, backendUrl, artifacts),
    ).catch((error: Error) => {
      outcomes.push({
        journey: "build",
        step: "next build",
        status: "failed",
        failures: [
          `${error.message.split("\n")[0]} … ${error.message.split("\n").slice(-6).join(" ").replace(/\s+/g, " ")}`,
          ...buildRefusals(),
        ],
        ms: phases["storefront install + build"] ?? 0,
      });
      return null;
    });
    if (!storefront) {
      const commit = storefrontSource(config).commit;
      writeReport(
        artifacts,
        {
          basePath: config.basePath,
          storefrontCommit: commit,
          phases,
          outcomes,
          totalMs: Math.round(performance.now() - started),
        },
        recorder.exchanges,
      );
      return 1;
    }
    console.log(
      `  storefront ${storefront.commit.slice(0, 7)}: install ${storefront.installed}, build ${storefront.built}`,
    );
    if (storefront.built === "built") {
      const failures = buildRefusals();
      outcomes.push({
        journey: "build",
        step: "next build",
        status: failures.length ? "failed" : "passed",
        failures,
        ms: phases["storefront install + build"] ?? 0,
      });
    }

    await kasse.api.admin("POST", "/admin/promotions", {
      code: PROMO_CODE,
      type: "standard",
      status: "active",
      application_method: { type: "percentage", target_type: "items", allocation: "each", value: 10 },
    });
    const server = await phase("storefront start", () =>
      startStorefront(storefront.dir, backendUrl, artifacts, storefrontPort),
    );
    browser = await chromium.launch({ executablePath: config.chromium, headless: true, args: CHROMIUM_ARGS });
    const runner = new Runner(browser, recorder, kasse.api, config, server.url, artifacts);
    await phase("journeys", async () => {
      await browse(runner);
      await cart(runner);
      await guestCheckout(runner);
      await customer(runner);
      await orderTransfer(runner, mailbox!);
      await orderEdit(runner);
    });
    outcomes.push(...runner.outcomes);
    writeFileSync(join(artifacts, "browser-traffic.txt"), runner.browserLog.join("\n"));
    const failed = writeReport(
      artifacts,
      {
        basePath: config.basePath,
        storefrontCommit: storefront.commit,
        phases,
        outcomes,
        totalMs: Math.round(performance.now() - started),
      },
      recorder.exchanges,
    );
    return failed === 0 ? 0 : 1;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopAll();
    await kasse?.stop();
    await recorder?.close();
    await mailbox?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nThe suite could not run: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`Total runtime ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.exit(2);
  },
);
