import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startService, type Service } from "../e2e/processes";
import { freePort } from "../e2e/storefront";
import { SERVER_NODE_FLAGS } from "@kasse/runtime/node-flags";

/** What every Kasse process of the soak shares: its database, its Redis, the server secret, its file storage. */
export interface ClusterEnv {
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  /** `FILE_PROVIDER=s3` and the bucket's `S3_*` variables. */
  files: Record<string, string>;
}

/** A Kasse process the soak starts, kills and starts again. */
interface Member {
  name: string;
  service: Service;
  /** Counted in the figures: SIGKILLs this member survived (it was started again). */
  kills: number;
}

/** The soak's processes: API processes (`kasse start --no-worker`), workers, and a Redis of its own. */
export interface Cluster {
  /** The API processes' base URLs that are up now (the clients round-robin over them). */
  liveApiUrls(): string[];
  /** SIGKILLs API process `i` and starts it again on the same port; resolves once it listens. */
  killApi(i: number): Promise<void>;
  /** The pid of worker `i` (the lease owner of the executions it runs names it). */
  workerPid(i: number): number;
  /** SIGKILLs worker `i` and starts it again; resolves once it runs. */
  killWorker(i: number): Promise<void>;
  /** Shuts the soak's Redis down and starts it again on the same port. */
  restartRedis(): Promise<void>;
  kills(): { api: number; worker: number };
  stop(): Promise<void>;
}

const repo = join(import.meta.dirname, "../..");

/** The newest PostgreSQL cluster version on this machine (`/etc/postgresql/<ver>`). */
function postgresVersion(): string {
  const versions = readdirSync("/etc/postgresql").sort((a, b) => Number(a) - Number(b));
  if (!versions.length) throw new Error("no PostgreSQL cluster under /etc/postgresql");
  return versions.at(-1)!;
}

/**
 * Restarts the system PostgreSQL cluster (`pg_ctlcluster … restart`): every connection of every
 * process drops, as when a database fails over.
 */
export async function restartPostgres(): Promise<void> {
  await promisify(execFile)("pg_ctlcluster", ["--skip-systemctl-redirect", postgresVersion(), "main", "restart"]);
}

/** Starts a Redis for the soak alone (restarting it disturbs nobody else), on a free port. */
export async function startRedis(logDir: string): Promise<{ url: string; port: number; service: Service }> {
  const port = await freePort();
  const service = redisServer(port, logDir);
  await service.waitFor(/Ready to accept connections/, 10_000);
  return { url: `redis://127.0.0.1:${port}`, port, service };
}

function redisServer(port: number, logDir: string): Service {
  return startService(
    "redis",
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { cwd: repo, env: process.env, logFile: join(logDir, "redis.log") },
  );
}

/** API process `i`'s own data folder for files (`FILE_DIR`), which S3 storage leaves empty. */
export function fileDirOf(logDir: string, i: number): string {
  const dir = join(logDir, `api${i}-files`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts `apis` API processes and `workers` workers on `env`, each logging to `logDir`. */
export async function startCluster(
  env: ClusterEnv,
  redis: { port: number; service: Service },
  options: { apis: number; workers: number; logDir: string },
): Promise<Cluster> {
  const processEnv = {
    ...process.env,
    ...env.files,
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    JWT_SECRET: env.jwtSecret,
    HOST: "127.0.0.1",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    LOG_LEVEL: "warn",
    WEBHOOK_ALLOW_PRIVATE: "true",
    // The receiver's first failure is retried within seconds, not minutes.
    WEBHOOK_RETRY_SCHEDULE: "1s,2s,5s,10s,30s",
  };
  const ports = await Promise.all(Array.from({ length: options.apis }, () => freePort()));
  const startApi = async (i: number): Promise<Member["service"]> => {
    const service = startService(
      `api${i}`,
      process.execPath,
      [...SERVER_NODE_FLAGS, join(repo, "apps/cli/bin/kasse.js"), "start", "--no-worker"],
      {
        cwd: repo,
        // Each its own empty data folder, as on machines of their own: the files are in the bucket.
        env: { ...processEnv, PORT: String(ports[i]), FILE_DIR: fileDirOf(options.logDir, i) },
        logFile: join(options.logDir, `api${i}.log`),
      },
    );
    await service.waitFor(/listening on/, 60_000);
    return service;
  };
  const startWorker = async (i: number): Promise<Member["service"]> => {
    const worker = [...SERVER_NODE_FLAGS, join(repo, "apps/worker/bin/kasse-worker.js")];
    const service = startService(`worker${i}`, process.execPath, worker, {
      cwd: repo,
      env: { ...processEnv, LOG_LEVEL: "info" },
      logFile: join(options.logDir, `worker${i}.log`),
    });
    await service.waitFor(/worker started/, 60_000);
    return service;
  };
  const apis: Member[] = await Promise.all(
    Array.from({ length: options.apis }, async (_, i) => ({ name: `api${i}`, service: await startApi(i), kills: 0 })),
  );
  const workers: Member[] = await Promise.all(
    Array.from({ length: options.workers }, async (_, i) => ({
      name: `worker${i}`,
      service: await startWorker(i),
      kills: 0,
    })),
  );
  const down = new Set<number>();
  let redisService = redis.service;

  const kill = async (member: Member) => {
    try {
      process.kill(-member.service.child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
    await member.service.exited;
    member.kills++;
  };
  return {
    liveApiUrls: () => ports.filter((_, i) => !down.has(i)).map((port) => `http://127.0.0.1:${port}`),
    async killApi(i) {
      down.add(i);
      await kill(apis[i]!);
      apis[i]!.service = await startApi(i);
      down.delete(i);
    },
    workerPid: (i) => workers[i]!.service.child.pid!,
    async killWorker(i) {
      await kill(workers[i]!);
      workers[i]!.service = await startWorker(i);
    },
    async restartRedis() {
      await redisService.stop(); // SIGTERM: Redis exits, keeping nothing (--save "")
      redisService = redisServer(redis.port, options.logDir);
      await redisService.waitFor(/Ready to accept connections/, 10_000);
    },
    kills: () => ({ api: apis.reduce((n, m) => n + m.kills, 0), worker: workers.reduce((n, m) => n + m.kills, 0) }),
    async stop() {
      await Promise.all([...apis, ...workers].map((m) => m.service.stop()));
      await redisService.stop();
    },
  };
}
