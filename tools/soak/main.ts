// `npm run soak`: Kasse under load and faults, then checks that nothing was lost (docs/performance.md "Soak").
// 2 API processes and 2 workers on PostgreSQL and a Redis of the soak's own; users browse, check
// out (promotions with a usage budget, declines, hangs, flaky payments, scarce stock, repeated
// completes under one Idempotency-Key) and work the orders as an admin, while API processes are
// SIGKILLed every 20 s, a worker is SIGKILLed mid-execution, Redis restarts once and the system
// PostgreSQL cluster once (off with --no-restart-postgres). `npm run soak:ci` is the 60 s version.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { connect, type Database } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { seedDemoStore } from "@kasse/operations";
import { createInfrastructure, loadConfig } from "@kasse/runtime";
import { createModules } from "@kasse/modules";
import { createInventoryService } from "@kasse/modules/inventory";
import { createProductService } from "@kasse/modules/product";
import { createPromotionService } from "@kasse/modules/promotion";
import { createRegionService } from "@kasse/modules/region";
import { createWebhookService } from "@kasse/modules/event";
import { createFulfillmentService } from "@kasse/modules/fulfillment";
import { stopOnSignals } from "../e2e/processes";
import { createAdminWork } from "./admin-work";
import { runChaos } from "./chaos";
import { createClient } from "./client";
import { startS3Server, type S3Server } from "@kasse/api/testing/s3";
import { fileDirOf, startCluster, startRedis } from "./cluster";
import { parseSoakOptions, type SoakOptions } from "./options";
import { startReceiver, type Receiver } from "./receiver";
import { checkSharedFiles, SHARED_FILES } from "./shared-files";
import { createShoppers, type Shop } from "./shoppers";
import { settle, verify } from "./verify";

const repo = join(import.meta.dirname, "../..");
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").toLowerCase();
const dbName = `kasse_soak_${stamp}_${randomBytes(2).toString("hex")}`;
const logDir = join(repo, ".kasse", "soak", stamp);
const jwtSecret = randomBytes(24).toString("base64url");
const admin = { email: "soak@kasse.local", password: randomBytes(12).toString("base64url") };
const PROMO = "SOAK10";

const urlOf = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

async function onServer(statement: string): Promise<void> {
  const server = await connect({ url: urlOf("postgres"), poolSize: 1 });
  try {
    await server.db.execute(statement);
  } finally {
    await server.close();
  }
}

/**
 * Migrates the soak's database and seeds it: the demo store, an admin, pp_test in the US region,
 * plenty of stock but two scarce variants, the SOAK10 promotion under a usage budget, and the
 * receiver's webhook. Returns what the users need and every variant's stock before.
 */
async function prepare(
  options: SoakOptions,
  redisUrl: string,
  receiver: Receiver,
): Promise<{ shop: Shop; stockBefore: Map<string, number>; locationId: string }> {
  const config = loadConfig({
    DATABASE_URL: urlOf(dbName),
    REDIS_URL: redisUrl,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: "warn",
  });
  const infra = await createInfrastructure(config, { migrate: true });
  try {
    const store = await seedDemoStore(createModules());
    if (!store) throw new Error("the new soak database was not empty");
    await createUserAccount(infra.engine, admin, { scryptLogN: config.scryptLogN });
    await createRegionService().update(store.region_ids.us, { payment_providers: ["pp_system_default", "pp_test"] });
    const { items: variants } = await createProductService().listVariants({}, { limit: 1000, offset: 0 });
    const inventory = createInventoryService();
    const links = await inventory.listVariantInventoryItems(variants.map((v) => v.id));
    const stocked = variants.filter((v) => v.manage_inventory && links.get(v.id)?.length === 1);
    const scarce = stocked.slice(0, 2).map((v) => v.id);
    const stockBefore = new Map<string, number>();
    for (const variant of stocked) {
      const quantity = scarce.includes(variant.id) ? options.scarceStock : 100_000;
      await inventory.updateLevel(links.get(variant.id)![0]!.inventory_item_id, store.stock_location_id, {
        stocked_quantity: quantity,
      });
      stockBefore.set(variant.id, quantity);
    }
    const promotions = createPromotionService();
    const campaign = await promotions.createCampaign({
      name: "Soak",
      campaign_identifier: "soak",
      budget: { type: "usage", limit: options.promotionBudget },
    });
    await promotions.create({
      code: PROMO,
      type: "standard",
      campaign_id: campaign.id,
      application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
    });
    await createWebhookService({ secret: jwtSecret, allowPrivate: true }).create({
      url: receiver.url,
      events: ["order.placed"],
      description: "soak receiver",
    });
    const [option] = (
      await createFulfillmentService().listOptions({ region_id: [store.region_ids.us] }, { limit: 1, offset: 0 })
    ).items;
    const shop: Shop = {
      storeHeaders: { "x-publishable-api-key": store.publishable_api_key },
      regionId: store.region_ids.us,
      shippingOptionId: option!.id,
      variantIds: stocked.filter((v) => !scarce.includes(v.id)).map((v) => v.id),
      scarceVariantIds: scarce,
      promoCode: PROMO,
    };
    return { shop, stockBefore, locationId: store.stock_location_id };
  } finally {
    await infra.close();
  }
}

/** `kasse check` on the soak's database, as an operator runs it: its exit code and report. */
function kasseCheck(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repo, "apps/cli/bin/kasse.js"), "check"], {
      env: { ...process.env, DATABASE_URL: urlOf(dbName) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code: code ?? 1, output: output.trim() }));
  });
}

/** {@link checkSharedFiles} between the two API processes, once both are up again after the chaos. */
async function sharedFiles(cluster: Awaited<ReturnType<typeof startCluster>>) {
  const until = Date.now() + 60_000;
  while (cluster.liveApiUrls().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  const [first, second] = cluster.liveApiUrls();
  if (!first || !second) return { name: SHARED_FILES, failures: ["two API processes were not up within 60 s"] };
  return checkSharedFiles([first, second], admin, [fileDirOf(logDir, 0), fileDirOf(logDir, 1)]);
}

async function main(): Promise<number> {
  const options = parseSoakOptions(process.argv.slice(2));
  stopOnSignals();
  mkdirSync(logDir, { recursive: true });
  console.log(`Soak: ${options.users} users for ${options.durationS} s; database ${dbName}; logs in ${logDir}`);
  await onServer(`create database ${dbName}`);
  const receiver = await startReceiver();
  const redis = await startRedis(logDir);
  let database: Database | undefined;
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  let s3: S3Server | undefined;
  try {
    const { shop, stockBefore, locationId } = await prepare(options, redis.url, receiver);
    // The API processes keep files in a bucket of an S3-compatible server of the soak's own.
    s3 = await startS3Server("kasse-soak");
    const files = s3.env;
    cluster = await startCluster({ databaseUrl: urlOf(dbName), redisUrl: redis.url, jwtSecret, files }, redis, {
      apis: 2,
      workers: 2,
      logDir,
    });
    database = await connect({ url: urlOf(dbName), poolSize: 2 });
    const client = createClient(cluster.liveApiUrls);
    const shoppers = createShoppers(client, shop);
    const adminWork = createAdminWork(client, admin, locationId);
    const deadline = Date.now() + options.durationS * 1000;
    const admins = Math.max(1, Math.round(options.users / 6));
    const user = async (i: number) => {
      while (Date.now() < deadline) {
        if (i < admins) {
          const orderId = shoppers.placed.shift();
          if (orderId) await adminWork.work(orderId);
          else await new Promise((resolve) => setTimeout(resolve, 200));
        } else await shoppers.act();
      }
    };
    console.log(`Running: ${options.users - admins} shoppers, ${admins} admins`);
    const [chaos] = await Promise.all([
      runChaos(cluster, database.db, { ...options, log: (line) => console.log(line) }),
      ...Array.from({ length: options.users }, (_, i) => user(i)),
    ]);
    console.log("Users stopped; waiting for executions to finish and events to be delivered");
    await settle(database.db, 120_000);
    const verdicts = await verify(database.db, { checkouts: shoppers.started, stockBefore, receiver });
    verdicts.push(await sharedFiles(cluster));
    const check = await kasseCheck();
    verdicts.push({ name: "kasse check is clean", failures: check.code === 0 ? [] : [check.output] });

    const f = shoppers.figures;
    const kills = cluster.kills();
    const repeats = shoppers.started.reduce((n, c) => n + c.repeats, 0);
    console.log(
      [
        "",
        `Figures (${options.durationS} s, ${options.users} users):`,
        `  checkouts ${f.checkouts}: orders ${f.orders}, declines ${f.declines}, payment timeouts (hang) ${f.timeouts}, oversell attempts refused ${f.oversellRefused}, promotion budget refusals ${f.budgetRefused}`,
        `  checkouts dropped in setup: ${
          Object.entries(f.setupFailures)
            .map(([why, n]) => `${why} ×${n}`)
            .join("; ") || "none"
        }`,
        `  other answers to a complete: ${
          Object.entries(f.otherFailures)
            .map(([why, n]) => `${why} ×${n}`)
            .join("; ") || "none"
        }`,
        `  browses ${f.browses}; requests ${client.figures.requests}, retried ${client.figures.retries}, retried under a new key ${client.figures.newKeys}`,
        `  duplicates refused (repeated completes answered with the first order) ${repeats}`,
        `  admin: ${Object.entries(adminWork.figures.done)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}; refused: ${
          Object.entries(adminWork.figures.refused)
            .map(([k, v]) => `${k} ×${v}`)
            .join(", ") || "none"
        }; failed ${adminWork.figures.failed}`,
        `  kills survived: ${kills.api} API, ${kills.worker} worker${chaos.killedMidExecution ? ` (mid-execution: ${chaos.killedMidExecution})` : ""}; ${chaos.events
          .filter((e) => /restarted/.test(e))
          .map((e) => e.replace(/^\[.*?\] /, ""))
          .join(", ")}`,
        `  webhook deliveries of order.placed: ${receiver.deliveries()} for ${receiver.placed.size} orders`,
        "",
        ...verdicts.map((v) =>
          v.failures.length
            ? `FAIL  ${v.name}\n${v.failures
                .slice(0, 10)
                .map((l) => `        ${l}`)
                .join("\n")}`
            : `ok    ${v.name}`,
        ),
      ].join("\n"),
    );
    return verdicts.some((v) => v.failures.length) ? 1 : 0;
  } finally {
    await cluster?.stop();
    await s3?.close();
    await database?.close();
    await redis.service.stop();
    await receiver.close();
    if (!options.keepDatabase) await onServer(`drop database if exists ${dbName} with (force)`);
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error);
  return 1;
});
