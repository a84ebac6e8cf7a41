import cluster, { type Worker } from "node:cluster";
import { clusterMetrics, serveMetrics, type Config } from "@kasse/runtime";

/** The environment variable by which the primary tells each API process its slot (0 to N-1). */
const SLOT_VARIABLE = "KASSE_CLUSTER_SLOT";

/**
 * This process's role among the processes of its host, the last part of its executor identity:
 * `api-<slot>` for a child of `kasse start --processes N`, else `api`.
 */
export function apiRole(): string {
  return cluster.isWorker ? `api-${process.env[SLOT_VARIABLE] ?? cluster.worker?.id ?? 0}` : "api";
}

/** Why `kasse start --processes N` cannot run with this configuration, or null when it can. */
export function clusterRefusal(config: Pick<Config, "embedded" | "redisUrl">, processes: number): string | null {
  if (processes <= 1) return null;
  if (config.embedded) {
    return `kasse start --processes ${processes} needs services mode (DATABASE_URL and REDIS_URL): the embedded PGlite database can be opened by one process only. Start without --processes, or point DATABASE_URL at PostgreSQL.`;
  }
  if (!config.redisUrl)
    return `kasse start --processes ${processes} needs REDIS_URL: the API processes share the workflow queue and the rate-limit counters through Redis.`;
  return null;
}

/**
 * The primary of `kasse start --processes N`: forks N API processes that serve one port (node's
 * cluster hands each new connection to the next process), restarts one that dies after it
 * listened (one that dies before is failing to start: the others are stopped too), and on
 * SIGTERM/SIGINT passes the signal on and exits once every process has shut down gracefully.
 * Each process is a whole `kasse start` (API and, unless --no-worker, a worker): they share
 * PostgreSQL and Redis, so none holds state another needs. With `metrics` (METRICS_PORT) the
 * primary serves the metrics of all of them, summed at each scrape.
 */
export async function startCluster(processes: number, metrics?: Config["metrics"]): Promise<number> {
  if (metrics)
    console.log(`Metrics of the ${processes} processes at ${await serveMetrics(metrics, await clusterMetrics())}`);
  let stopping = false;
  let exitCode = 0;
  const running = new Set<Worker>();
  const listened = new Set<Worker>();
  // Each process has a slot, kept by the one that replaces it: its executor identity (`api-<slot>`),
  // so a replacement resumes at once the executions the dead one held.
  const slots = new Map<Worker, number>();
  const fork = (slot: number) => {
    const worker = cluster.fork({ [SLOT_VARIABLE]: String(slot) });
    slots.set(worker, slot);
    running.add(worker);
  };
  return new Promise((resolveExit) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
    cluster.on("listening", (worker) => listened.add(worker));
    cluster.on("exit", (worker, code, signal) => {
      running.delete(worker);
      const slot = slots.get(worker) ?? 0;
      slots.delete(worker);
      const hadListened = listened.delete(worker);
      if (stopping) {
        if (running.size === 0) resolveExit(exitCode);
        return;
      }
      if (!hadListened) {
        console.error(
          `kasse: an API process exited ${signal ?? `with code ${code}`} while starting; stopping the others.`,
        );
        exitCode = 1;
        stop("SIGTERM");
        if (running.size === 0) resolveExit(exitCode);
        return;
      }
      console.error(
        `kasse: API process ${worker.process.pid} exited ${signal ?? `with code ${code}`}; starting another.`,
      );
      fork(slot);
    });
    for (let i = 0; i < processes; i++) fork(i);
  });
}
