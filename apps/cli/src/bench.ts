// `npm run bench`: the storefront load harness (shared/bench, see its README) against a Kasse
// server in services mode (PostgreSQL + Redis) on a fresh copy of the demo store. Extra arguments
// go to the harness (e.g. `npm run bench -- --duration 10 --concurrency 1,8`), except
// `--api-processes N`, which serves the API from N processes (`kasse start --processes N`).
// The server is started as the README says, with `npm start`, so the bench measures what an operator
// runs; KASSE_BENCH_NODE_ARGS gives it node options (e.g. a CPU profile: "--cpu-prof
// --cpu-prof-dir=<dir>"), and then it is started with node directly, as `npm start`'s script does.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInfrastructure, loadConfig } from "@kasse/runtime";
import { SERVER_NODE_FLAGS } from "@kasse/runtime/node-flags";
import { connect } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { createModules } from "@kasse/modules";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const benchDir = resolve(process.env.KASSE_BENCH_DIR ?? join(repo, "../shared/bench"));
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const port = process.env.KASSE_BENCH_PORT ?? "9100";
const baseUrl = `http://127.0.0.1:${port}`;
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
const dbName = `kasse_bench_${stamp.toLowerCase()}_${randomBytes(2).toString("hex")}`;
const outDir = join(repo, ".kasse", "bench");
const jwtSecret = randomBytes(24).toString("base64url");
const admin = { email: "bench@kasse.local", password: randomBytes(12).toString("base64url") };
const { apiProcesses, harnessArgs } = splitArguments(process.argv.slice(2));

/** `--api-processes N` (or `=N`) is ours; every other argument goes to the harness. */
function splitArguments(argv: string[]): { apiProcesses: number; harnessArgs: string[] } {
  const harness: string[] = [];
  let processes = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg !== "--api-processes" && !arg.startsWith("--api-processes=")) {
      harness.push(arg);
      continue;
    }
    const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
    processes = Number(value);
    if (!Number.isInteger(processes) || processes < 1)
      throw new Error(`--api-processes takes a whole number of processes, not '${value}'`);
  }
  return { apiProcesses: processes, harnessArgs: harness };
}

const urlOf = (name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Creates the bench database, migrated, with the demo store and an admin. */
async function prepareDatabase(): Promise<DemoStore> {
  const server = await connect({ url: urlOf("postgres"), poolSize: 1 });
  try {
    await server.db.execute(`create database ${dbName}`);
  } finally {
    await server.close();
  }
  const config = loadConfig({ DATABASE_URL: urlOf(dbName), JWT_SECRET: jwtSecret, LOG_LEVEL: "warn" });
  const infra = await createInfrastructure(config, { migrate: true });
  try {
    const modules = createModules();
    const store = await seedDemoStore(modules);
    if (!store) throw new Error("the new bench database was not empty");
    await stockGenerously(modules, store);
    await createUserAccount(infra.engine, admin, { scryptLogN: config.scryptLogN });
    return store;
  } finally {
    await infra.close();
  }
}

/**
 * Units of every variant at the bench's stock location. The demo seed stocks 5 to 44 of each (so
 * some sizes run low in a demo); thousands of checkouts a minute would run out and measure
 * "Insufficient inventory" answers instead of orders. The oversell probe sets its own scarce level.
 */
const BENCH_STOCK = 1_000_000;

/** Stocks every variant of the bench database generously (bench only: the demo seed stays as it is). */
async function stockGenerously(modules: ReturnType<typeof createModules>, store: DemoStore): Promise<void> {
  const { items: variants } = await modules.product.listVariants({}, { limit: 1000, offset: 0 });
  const links = await modules.inventory.listVariantInventoryItems(variants.map((v) => v.id));
  for (const link of [...links.values()].flat())
    await modules.inventory.updateLevel(link.inventory_item_id, store.stock_location_id, {
      stocked_quantity: BENCH_STOCK,
    });
}

async function dropDatabase(): Promise<void> {
  const server = await connect({ url: urlOf("postgres"), poolSize: 1 });
  try {
    await server.db.execute(`drop database if exists ${dbName} with (force)`);
  } finally {
    await server.close();
  }
}

/** A started server: the process started (`npm start`), and Kasse's own under it (what the harness measures). */
interface StartedKasse {
  launcher: ChildProcess;
  pid: number;
}

/**
 * Starts Kasse as the README says, `npm start` in services mode (`-- --processes N` with
 * --api-processes), and resolves once it listens. Rate limiting is off: the harness is one
 * client. The admin dashboard is off: its first build would run beside the measurement.
 */
function startServer(): Promise<StartedKasse> {
  const env = {
    ...process.env,
    DATABASE_URL: urlOf(dbName),
    REDIS_URL: redisUrl,
    JWT_SECRET: jwtSecret,
    PORT: port,
    HOST: "127.0.0.1",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    LOG_LEVEL: "warn",
    WEBHOOK_ALLOW_PRIVATE: "true",
    ADMIN_UI: "false",
  };
  const processes = apiProcesses > 1 ? ["--processes", String(apiProcesses)] : [];
  // Node refuses --cpu-prof in NODE_OPTIONS, so options for the server replace npm by what its
  // script runs: node with the server's heap options, then these.
  const nodeArgs = process.env.KASSE_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const [command, args] = nodeArgs.length
    ? [process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, "apps/cli/bin/kasse.js", "start", ...processes]]
    : ["npm", ["start", "--silent", ...(processes.length ? ["--", ...processes] : [])]];
  const launcher = spawn(command, args, { cwd: repo, env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolveStart, reject) => {
    let output = "";
    let listening = false;
    launcher.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Every API process says it listens once it does.
      if (!listening && (output.match(/listening on/g) ?? []).length >= apiProcesses) {
        listening = true;
        console.log(output.trim().split("\n")[0]);
        const pid = kasseProcess(launcher.pid!);
        if (pid === undefined) reject(new Error(`${command} listens, but no kasse process was found in it`));
        else resolveStart({ launcher, pid });
      }
    });
    launcher.on("exit", (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
  });
}

/**
 * The process Kasse runs in: `pid` itself or one under it (npm runs its script through a shell).
 * The harness measures it and its children, not npm's own 60 MiB. Linux: children are read from /proc.
 */
function kasseProcess(pid: number): number | undefined {
  const isKasse = (of: number) =>
    readFileSync(`/proc/${of}/cmdline`, "utf8")
      .split("\0")
      .some((arg) => arg.endsWith("apps/cli/bin/kasse.js"));
  if (isKasse(pid)) return pid;
  const children = (of: number) =>
    readdirSync(`/proc/${of}/task`).flatMap((task) =>
      readFileSync(`/proc/${of}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  for (const child of children(pid)) {
    const below = kasseProcess(child);
    if (below !== undefined) return below;
  }
  return undefined;
}

async function http<T>(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** Whether the server has a route (our 404 for a missing route says "Route ... not found"). */
async function hasRoute(method: string, path: string, headers: Record<string, string>): Promise<boolean> {
  const res = await http<{ message?: string }>(method, path, headers, method === "POST" ? {} : undefined);
  return !(res.status === 404 && res.json.message?.startsWith("Route "));
}

interface AdminVariant {
  id: string;
  inventory_items?: Array<{ inventory_item_id: string }>;
}

/** The harness's target JSON, read from the running server. */
async function buildTarget(store: DemoStore, pidFile: string) {
  const login = await http<{ token: string }>("POST", "/auth/user/emailpass", {}, admin);
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status}`);
  const auth = { authorization: `Bearer ${login.json.token}` };
  const products = await http<{ products: Array<{ variants: AdminVariant[] }> }>(
    "GET",
    "/admin/products?limit=100&fields=id,variants.id,variants.inventory_items",
    auth,
  );
  const variants = products.json.products.flatMap((p) => p.variants);
  const options = await http<{ shipping_options: Array<{ id: string }> }>(
    "GET",
    `/admin/shipping-options?region_id=${store.region_ids.us}`,
    auth,
  );
  const variantInventory = Object.fromEntries(
    variants.filter((v) => v.inventory_items?.[0]).map((v) => [v.id, v.inventory_items![0]!.inventory_item_id]),
  );
  const scarce = variants.find((v) => variantInventory[v.id]);
  const storeHeaders = { "x-publishable-api-key": store.publishable_api_key };
  const available = {
    catalog: true,
    checkout: await hasRoute("POST", "/store/carts/cart_bench_probe/complete", storeHeaders),
    admin: await hasRoute("GET", "/admin/orders?limit=1", auth),
  };
  return {
    available,
    target: {
      name: "kasse",
      base_url: baseUrl,
      store_headers: storeHeaders,
      publishable_key: store.publishable_api_key,
      admin: { ...admin, auth_path: "/auth/user/emailpass" },
      region_id: store.region_ids.us,
      sales_channel_id: store.sales_channel_id,
      stock_location_id: store.stock_location_id,
      shipping_option_id: options.json.shipping_options[0]?.id,
      payment_provider_id: "pp_system_default",
      variant_ids: variants.map((v) => v.id),
      variant_inventory: variantInventory,
      ...(scarce ? { scarce: { variant_id: scarce.id, inventory_item_id: variantInventory[scarce.id] } } : {}),
      server_pid_file: pidFile,
    },
  };
}

/**
 * A webhook receiver subscribed to `order.placed` (unless KASSE_BENCH_WEBHOOK=0): measures the delay
 * from the event's commit (its `timestamp`) to its delivery, and counts deliveries per order.
 */
async function startWebhookReceiver(): Promise<{ server: Server; report(): string } | undefined> {
  if (process.env.KASSE_BENCH_WEBHOOK === "0") return undefined;
  const delays: number[] = [];
  const perOrder = new Map<string, Set<string>>();
  let deliveries = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const received = Date.now();
      res.writeHead(204).end();
      const message = JSON.parse(body) as { id: string; type: string; timestamp: string; data: { id: string } };
      if (message.type !== "order.placed") return;
      deliveries++;
      delays.push(received - Date.parse(message.timestamp));
      perOrder.set(message.data.id, (perOrder.get(message.data.id) ?? new Set()).add(message.id));
    });
  });
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/kasse`;
  const login = await http<{ token: string }>("POST", "/auth/user/emailpass", {}, admin);
  const created = await http<{ webhook?: { id: string } }>(
    "POST",
    "/admin/webhooks",
    { authorization: `Bearer ${login.json.token}` },
    { url, events: ["order.placed"], description: "bench: commit-to-delivery delay" },
  );
  if (!created.json.webhook) throw new Error(`could not create the bench webhook: ${created.status}`);
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return {
    server,
    report() {
      const sorted = [...delays].sort((a, b) => a - b);
      const twice = [...perOrder.values()].filter((ids) => ids.size > 1).length;
      return [
        `Webhooks (order.placed): ${deliveries} deliveries for ${perOrder.size} orders; orders with more than one event: ${twice}`,
        `Commit to delivery: p50 ${pct(sorted, 50)} ms, p99 ${pct(sorted, 99)} ms, max ${sorted.at(-1) ?? 0} ms`,
      ].join("\n");
    },
  };
}

function run(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => resolveRun(code ?? 1));
  });
}

async function main(): Promise<number> {
  if (!existsSync(join(benchDir, "bench.mjs"))) throw new Error(`No harness at ${benchDir} (set KASSE_BENCH_DIR)`);
  if (!existsSync(join(benchDir, "node_modules"))) {
    console.log(`Installing the harness's dependencies in ${benchDir}`);
    if ((await run("npm", ["ci", "--no-audit", "--no-fund"], benchDir)) !== 0)
      throw new Error("npm ci failed in the harness directory");
  }
  mkdirSync(outDir, { recursive: true });
  console.log(`Preparing ${dbName}: migrations, demo store, admin`);
  const store = await prepareDatabase();
  let server: StartedKasse | undefined;
  try {
    server = await startServer();
    const pidFile = join(outDir, "server.pid");
    writeFileSync(pidFile, String(server.pid));
    const { target, available } = await buildTarget(store, pidFile);
    const targetFile = join(outDir, `target-${stamp}.json`);
    writeFileSync(targetFile, JSON.stringify(target, null, 2));
    const scenarios = Object.entries(available)
      .filter(([, ok]) => ok)
      .map(([name]) => name);
    const skipped = Object.entries(available)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    if (skipped.length) console.log(`Not available on this server yet, skipped: ${skipped.join(", ")}`);
    const probes = available.checkout ? "oversell,double-complete" : "none";
    const args = [
      "bench.mjs",
      "--target",
      targetFile,
      "--scenarios",
      scenarios.join(","),
      "--probes",
      probes,
      "--server-pid-file",
      pidFile,
      "--out",
      join(outDir, `kasse-${stamp}.json`),
      ...harnessArgs,
    ];
    const receiver = available.checkout ? await startWebhookReceiver() : undefined;
    try {
      return await run(process.execPath, args, benchDir);
    } finally {
      if (receiver) {
        // The last orders' events are still on their way.
        await new Promise((resolveWait) => setTimeout(resolveWait, 2_000));
        console.log(receiver.report());
        receiver.server.close();
      }
    }
  } finally {
    if (server && server.launcher.exitCode === null) {
      // Kasse's process is told, as a supervisor would (npm's shell would not pass a signal on).
      const exited = new Promise((resolveExit) => server!.launcher.once("exit", resolveExit));
      process.kill(server.pid, "SIGTERM");
      await exited;
    }
    await dropDatabase();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
