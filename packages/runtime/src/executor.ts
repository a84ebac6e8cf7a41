import { randomBytes } from "node:crypto";
import type { Database, HeldLock } from "@kasse/db";
import { executorLockKey, type EngineLogger } from "@kasse/workflows";

/** The executor identity a process runs its workflow executions under (docs/recovery.md). */
export interface Executor {
  /** What its leases are owned as (`<id>#<incarnation>`): the stable identity when `lock` is held. */
  id: string;
  /** The lock on the stable identity: while it is held no other live process has it. */
  lock?: HeldLock;
}

/**
 * Takes the executor identity `<host>:<role>` (host: `KASSE_EXECUTOR_ID`, else the host name; role:
 * `api`, `api-<slot>` for a child of `kasse start --processes`, `worker`) by holding a session lock
 * on it in the database: a process restarted under it may then resume what its predecessor held,
 * since no live process has it. When another live process holds it (two processes started with one
 * identity by mistake), this one runs under an identity of its own instead (`<identity>~<pid>-<random>`,
 * locked as well), takes nothing over at start, and says so: the live one's work is never taken from it.
 * Once the process is gone its lock is too, and any process's recovery sweep takes its executions
 * over without waiting for their leases to expire.
 */
export async function takeExecutor(
  database: Database,
  identity: string,
  logger: EngineLogger | undefined,
): Promise<Executor> {
  const lock = await database.holdLock?.(executorLockKey(identity));
  if (lock) return { id: identity, lock };
  const id = `${identity}~${process.pid}-${randomBytes(3).toString("hex")}`;
  // Held too, for the same reason: while it is, the recovery sweep leaves this process's work alone.
  const own = await database.holdLock?.(executorLockKey(id));
  logger?.warn(
    { executor: identity, instead: id },
    `another live process runs as executor ${identity}; this one runs as ${id} and resumes nothing at start (give each process its own KASSE_EXECUTOR_ID)`,
  );
  return { id, lock: own };
}
