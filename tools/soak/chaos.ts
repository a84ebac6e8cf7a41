import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@kasse/db";
import { restartPostgres, type Cluster } from "./cluster";

/** What the chaos did, for the figures. */
export interface ChaosFigures {
  events: string[];
  /** The execution a worker held when it was killed (resumed by another process afterwards), if it caught one. */
  killedMidExecution: string | null;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the faults while the users work: an API process SIGKILLed (and started again) every
 * `apiKillEveryS`, a worker SIGKILLed while it holds an execution, Redis restarted once, and the
 * PostgreSQL cluster restarted once (when `restartPostgres`). Resolves when `until` passes.
 */
export async function runChaos(
  cluster: Cluster,
  db: Db,
  options: { durationS: number; apiKillEveryS: number; restartPostgres: boolean; log: (line: string) => void },
): Promise<ChaosFigures> {
  const figures: ChaosFigures = { events: [], killedMidExecution: null };
  const start = Date.now();
  const until = start + options.durationS * 1000;
  const at = (fraction: number) => start + options.durationS * 1000 * fraction;
  const note = (line: string) => {
    const stamped = `[${Math.round((Date.now() - start) / 1000)} s] ${line}`;
    figures.events.push(stamped);
    options.log(stamped);
  };

  async function killApis(): Promise<void> {
    for (let i = 0; Date.now() + options.apiKillEveryS * 1000 < until; i++) {
      await pause(options.apiKillEveryS * 1000);
      const which = i % 2;
      const restarted = Date.now();
      await cluster.killApi(which);
      note(`SIGKILL api${which}; listening again after ${Date.now() - restarted} ms`);
    }
  }

  async function killWorkerMidExecution(): Promise<void> {
    await pause(Math.max(0, at(0.35) - Date.now()));
    const pid = cluster.workerPid(0);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const [held] = await queryRows<{ id: string; workflow_id: string }>(
        db,
        sql`select id, workflow_id from workflow_executions where state in ('running', 'compensating') and lease_owner like ${`%:${pid}:%`} limit 1`,
      ).catch(() => []);
      if (held) {
        await cluster.killWorker(0);
        figures.killedMidExecution = held.id;
        note(`SIGKILL worker0 (pid ${pid}) while it ran ${held.workflow_id} ${held.id}`);
        return;
      }
      await pause(10);
    }
    await cluster.killWorker(0);
    note(`SIGKILL worker0 (pid ${pid}): it held no execution for 30 s, killed anyway`);
  }

  async function restartRedis(): Promise<void> {
    await pause(Math.max(0, at(0.55) - Date.now()));
    const began = Date.now();
    await cluster.restartRedis();
    note(`Redis restarted (${Date.now() - began} ms)`);
  }

  async function restartDatabase(): Promise<void> {
    if (!options.restartPostgres) return;
    await pause(Math.max(0, at(0.8) - Date.now()));
    const began = Date.now();
    await restartPostgres();
    note(`PostgreSQL restarted (${Date.now() - began} ms)`);
  }

  await Promise.all([killApis(), killWorkerMidExecution(), restartRedis(), restartDatabase()]);
  return figures;
}
