import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { errors, fromJSON, generateId, isKasseError } from "@kasse/core";
import { type Db } from "@kasse/db";
import { asJson, backoffDelay, systemClock } from "./backoff";
import * as journal from "./queries";
import { runExecution, Halted, LeaseLost, type RunEnv } from "./runner";
import { journalCopy } from "./secrets";
import type { Scheduler } from "./scheduler";
import type { EventRecorder } from "./events";
import type { EngineObserver } from "./observer";
import type { ExecutionRow, StepRunRow } from "./schema";
import type { AnyWorkflow, Clock, EngineLogger, ExecuteOptions, RetryPolicy, ModulesFactory, Workflow } from "./types";

export interface EngineOptions {
  db: Db;
  /** Where resumes and background compensation retries are queued; without one they run inline. */
  scheduler?: Scheduler;
  clock?: Clock;
  logger?: EngineLogger;
  /** Workflows this engine can resume by name (the worker needs them all). `execute` registers its own. */
  workflows?: readonly AnyWorkflow[];
  /**
   * This process's executor identity, stable across its restarts (the runtime derives it from the
   * host and the process's role, `KASSE_EXECUTOR_ID`). Leases are owned as `<executor>#<incarnation>`
   * (random per engine), and {@link Engine.resumeOwn} takes over what an earlier incarnation held.
   * The caller must hold its lock (`executorLockKey`, a session advisory lock) while the engine
   * runs: no other live process then has it, and the recovery sweep of any process takes this
   * one's executions as soon as the lock is gone (its process died), lease or not.
   * Default: host:pid, unique to this process, with no lock (only its leases count).
   */
  executor?: string;
  /** This process's lease owner id, as is (tests); defaults to `<executor>#<random>`. */
  owner?: string;
  /** How long a lease lasts without renewal (renewed every third of it). Default {@link DEFAULT_LEASE_MS}. */
  leaseMs?: number;
  /** How long a second caller waits for a running execution with its key before `conflict`. Default 15 s. */
  waitTimeoutMs?: number;
  /** Where `ctx.emit` records events (the event module's outbox); a step that emits fails without it. */
  events?: EventRecorder;
  /** Background retries of a failed compensation: `attempts` runs in all before the dead letter. */
  compensationRetry?: RetryPolicy;
  /** Gives what steps get as `ctx.modules`: the process's modules, built once (`() => modules`). */
  modules?: ModulesFactory;
  /** Told what this engine's executions do (the process's metrics). */
  observer?: EngineObserver;
}

/** An execution and its step journal, as the admin API shows it. */
export interface ExecutionDetail extends ExecutionRow {
  steps: StepRunRow[];
}

const silent: EngineLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * How long a lease lasts without renewal: an execution whose process is gone for good is taken
 * over at most this long (plus a recovery sweep's period) after its last renewal. Renewed every
 * third of it, so a process may stall (a pause of its event loop, a slow database) for two thirds
 * of it before it loses its executions.
 */
export const DEFAULT_LEASE_MS = 9_000;

/** How many executions of its predecessor a starting process takes over per statement. */
const OWN_BATCH = 100;

/**
 * Creates the saga engine over the journal tables in `db`.
 * @example
 * const engine = createEngine({ db, scheduler, workflows: allWorkflows });
 * const order = await engine.execute(completeCart, { cartId }, { idempotencyKey: cartId });
 */
export function createEngine(options: EngineOptions) {
  const db = options.db;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silent;
  const observer = options.observer;
  const executor = options.executor ?? `${hostname()}:${process.pid}`;
  // `#` marks an owner whose identity is held by a lock (`executorLockKey`): once it is not, the
  // recovery sweep takes its executions without waiting out their lease. Without an identity, `:`.
  const incarnation = randomBytes(4).toString("hex");
  const owner = options.owner ?? (options.executor ? `${executor}#${incarnation}` : `${executor}:${incarnation}`);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const waitTimeoutMs = options.waitTimeoutMs ?? 15_000;
  const compensationRetry: Required<RetryPolicy> = {
    attempts: 10,
    backoffMs: 1_000,
    maxBackoffMs: 10 * 60_000,
    ...options.compensationRetry,
  };
  const registry = new Map<string, AnyWorkflow>();
  /** Executions this process is running, so local waiters join them instead of polling. */
  const running = new Map<string, Promise<unknown>>();
  /** Every `execute` and `resume` call in progress: what a shutdown waits for. */
  const active = new Set<Promise<unknown>>();
  // Shutdown, in two stages (see `drain`): first no claims of other work, then no new step.
  let stopping = false;
  let halting = false;
  let startHalting!: () => void;
  const whenHalting = new Promise<void>((resolve) => (startHalting = resolve));
  const shuttingDown = (message: string) => errors.unavailable(`This server is shutting down: ${message}`);

  /** Runs an engine call, counted in `active` until it settles. */
  const tracked = <T>(call: () => Promise<T>): Promise<T> => {
    const promise = call();
    active.add(promise);
    const done = () => active.delete(promise);
    promise.then(done, done);
    return promise;
  };

  const env: RunEnv = {
    db,
    events: options.events,
    clock,
    logger,
    owner,
    leaseMs,
    modules: options.modules,
    observer,
    // Set once the engine below exists: steps run only after that.
    workflows: { execute: () => Promise.reject(new Error("The engine is not built yet")) },
    onCompensationFailed: async (row) => {
      observer?.finished(row.workflow_id, "compensation_failed");
      const attempt = row.attempt;
      const now = clock.now();
      if (attempt >= compensationRetry.attempts) {
        await journal.setState(db, row.id, owner, now, {
          state: "compensation_failed",
          release: true,
          next_retry_at: null,
          dead_lettered_at: now,
          finished: true,
        });
        logger.error(
          { executionId: row.id, workflow: row.workflow_id, attempt },
          "workflow compensation dead-lettered",
        );
        return;
      }
      const delayMs = backoffDelay(compensationRetry, attempt);
      await journal.setState(db, row.id, owner, now, {
        state: "compensation_failed",
        release: true,
        next_retry_at: new Date(now.getTime() + delayMs),
        finished: true,
      });
      logger.warn(
        { executionId: row.id, workflow: row.workflow_id, attempt, delayMs },
        "workflow compensation failed; retry scheduled",
      );
      await options.scheduler
        ?.enqueue(row.id, { delayMs, dedupeKey: `${row.id}-${attempt}` })
        .catch((error: unknown) =>
          logger.error({ err: error, executionId: row.id }, "could not schedule compensation retry"),
        );
    },
    halting: () => halting,
    whenHalting,
  };

  const register = (wf: AnyWorkflow) => {
    const known = registry.get(wf.name);
    if (known && known !== wf) throw new Error(`Two different workflows are named '${wf.name}'`);
    registry.set(wf.name, wf);
  };
  for (const wf of options.workflows ?? []) register(wf);

  const leaseUntil = () => new Date(clock.now().getTime() + leaseMs);

  /** The idempotency key and transaction id a new execution of `wf` is recorded under (see `freshAfterFailure`). */
  const keysOf = async (
    wf: AnyWorkflow,
    opts: ExecuteOptions,
    id: string,
  ): Promise<{ key: string | null; transactionId: string }> => {
    const transactionId = opts.transactionId ?? opts.idempotencyKey ?? id;
    if (opts.idempotencyKey === undefined) return { key: null, transactionId };
    if (!opts.freshAfterFailure) return { key: opts.idempotencyKey, transactionId };
    return { key: `${opts.idempotencyKey}:${await journal.failedAttempts(db, wf.name, transactionId)}`, transactionId };
  };

  /**
   * Runs a claimed execution here, recording it in `running` for local waiters. `input`: a fresh
   * run's real input (the journal's may be redacted). One paused by a shutdown (its lease already
   * given back) is queued for another process and answers `unavailable`.
   */
  const start = (wf: AnyWorkflow, row: ExecutionRow, fresh = false, input?: unknown): Promise<unknown> => {
    observer?.running(wf.name, 1);
    const promise = runExecution(env, wf, row, fresh, fresh ? input : row.input).catch(async (error: unknown) => {
      if (!(error instanceof Halted)) throw error;
      logger.info({ executionId: row.id, workflow: wf.name }, "workflow execution paused for shutdown; lease released");
      await options.scheduler
        ?.enqueue(row.id, { dedupeKey: `${row.id}-${row.attempt}` })
        .catch((failure: unknown) =>
          logger.warn(
            { err: failure, executionId: row.id },
            "could not queue a paused execution; the recovery sweep will",
          ),
        );
      throw shuttingDown(
        `workflow execution ${row.id} was paused and is resumed by another process; retry the request`,
      );
    });
    running.set(row.id, promise);
    const ended = () => {
      running.delete(row.id);
      observer?.running(wf.name, -1);
    };
    void promise.then(ended, ended);
    return promise;
  };

  /** The outcome of an execution that is finished, or undefined while it runs. */
  const settled = (row: ExecutionRow): { done: true; result: unknown } | { done: false } => {
    if (row.state === "succeeded") return { done: true, result: row.result };
    if (row.state === "failed" || row.state === "compensated" || row.state === "compensation_failed") {
      throw row.error ? fromJSON(row.error) : errors.unexpectedState(`Workflow execution ${row.id} ended ${row.state}`);
    }
    return { done: false };
  };

  /** Waits for an execution another caller runs; takes it over if its process died. */
  const join = async (wf: AnyWorkflow, first: ExecutionRow): Promise<unknown> => {
    const deadline = clock.now().getTime() + waitTimeoutMs;
    let row: ExecutionRow | undefined = first;
    let pollMs = 10;
    for (;;) {
      if (!row) throw errors.notFound(`Workflow execution ${first.id} was not found`);
      const local = running.get(row.id);
      if (local) {
        try {
          return await local;
        } catch (error) {
          if (!(error instanceof LeaseLost)) throw error;
        }
      } else {
        const outcome = settled(row);
        if (outcome.done) return outcome.result;
        const expired = !row.lease_expires_at || row.lease_expires_at.getTime() < clock.now().getTime();
        if (expired && !stopping && (row.state === "running" || row.state === "compensating")) {
          const claimed = await journal.claimExecution(db, row.id, owner, clock.now(), leaseUntil());
          if (claimed) return runClaimed(wf, claimed);
        }
      }
      if (clock.now().getTime() >= deadline) {
        throw errors.conflict(`Workflow ${wf.name} execution ${row.id} is still running; try again later`);
      }
      if (halting) throw shuttingDown(`workflow execution ${row.id} is still running elsewhere; retry the request`);
      await clock.sleep(pollMs);
      pollMs = Math.min(250, Math.ceil(pollMs * 1.5));
      row = await journal.getExecution(db, first.id);
    }
  };

  const runClaimed = async (wf: AnyWorkflow, row: ExecutionRow, fresh = false, input?: unknown): Promise<unknown> => {
    try {
      return await start(wf, row, fresh, input);
    } catch (error) {
      if (error instanceof LeaseLost) return join(wf, (await journal.getExecution(db, row.id)) ?? row);
      throw error;
    }
  };

  /** Waits until no engine call is in progress, or `deadline` (epoch ms); true when idle. */
  const idleWithin = async (deadline: number): Promise<boolean> => {
    while (active.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...active]),
        new Promise((resolve) => (timer = setTimeout(resolve, left))),
      ]);
      clearTimeout(timer);
    }
    return true;
  };

  const workflowOf = (row: ExecutionRow): AnyWorkflow => {
    const wf = registry.get(row.workflow_id);
    if (!wf) throw errors.unexpectedState(`Workflow '${row.workflow_id}' is not registered with this engine`);
    return wf;
  };

  const engine = {
    owner,
    executor,
    register,

    /**
     * Runs `wf` to its end and returns its result, or throws the typed error of the step that
     * failed (after compensating the steps before it). With an idempotency key that already has an
     * execution, returns (or waits for) that execution's outcome instead of running again.
     */
    execute<I, R>(wf: Workflow<I, R>, input: I, opts: ExecuteOptions = {}): Promise<R> {
      return tracked(async () => {
        // Until halting, a request already in flight may still start its workflow.
        if (halting) throw shuttingDown("retry the request");
        register(wf);
        const id = generateId("wfx");
        const { key, transactionId } = await keysOf(wf, opts, id);
        const now = clock.now();
        const real = asJson(input);
        const { row, created } = await journal.insertExecution(db, {
          id,
          workflow_id: wf.name,
          idempotency_key: key,
          transaction_id: transactionId,
          input: journalCopy(real, wf.secret.input),
          owner,
          leaseUntil: leaseUntil(),
          now,
        });
        if (created) {
          observer?.started(wf.name);
          return (await runClaimed(wf, row, true, real)) as R;
        }
        return (await join(wf, row)) as R;
      });
    },

    /**
     * Records an execution and queues it for the worker; returns its id (the existing one for a
     * known key). Not for a workflow with secret input: the worker would get only its redaction.
     */
    async enqueue<I, R>(wf: Workflow<I, R>, input: I, opts: ExecuteOptions = {}): Promise<string> {
      if (wf.secret.input.length > 0)
        throw new Error(
          `Workflow '${wf.name}' has secret input, which is never journaled: run it with execute, not enqueue`,
        );
      register(wf);
      const id = generateId("wfx");
      const { key, transactionId } = await keysOf(wf, opts, id);
      const { row, created } = await journal.insertExecution(db, {
        id,
        workflow_id: wf.name,
        idempotency_key: key,
        transaction_id: transactionId,
        input: asJson(input),
        owner: null,
        leaseUntil: null,
        now: clock.now(),
      });
      if (created) {
        observer?.started(wf.name);
        if (options.scheduler) await options.scheduler.enqueue(row.id, { dedupeKey: `${row.id}-0` });
        else void this.resume(row.id).catch(() => {});
      }
      return row.id;
    },

    /**
     * Resumes an execution whose process died, or retries its failed compensation: replays the
     * workflow against the journal. Returns its result or throws its error; `conflict` when another
     * process holds it; `unavailable` once this engine is shutting down (it claims nothing more).
     */
    resume(executionId: string): Promise<unknown> {
      return tracked(async () => {
        if (stopping) throw shuttingDown(`workflow execution ${executionId} is left to another process`);
        const row = await journal.getExecution(db, executionId);
        if (!row) throw errors.notFound(`Workflow execution ${executionId} was not found`);
        const wf = workflowOf(row); // before claiming: a process that cannot run it must not hold its lease
        const claimed = await journal.claimExecution(db, executionId, owner, clock.now(), leaseUntil());
        if (!claimed) {
          const outcome = settled(row);
          if (outcome.done) return outcome.result;
          throw errors.conflict(`Workflow execution ${executionId} is held by another process or not due yet`);
        }
        return start(wf, claimed);
      });
    },

    /** Re-queues a failed, compensation-failed (also dead-lettered) or stuck execution (admin retry). */
    async retry(executionId: string): Promise<ExecutionRow> {
      const row = await journal.getExecution(db, executionId);
      if (!row) throw errors.notFound(`Workflow execution with id: ${executionId} was not found`);
      if (row.state === "succeeded" || row.state === "compensated") {
        throw errors.conflict(
          `Workflow execution ${executionId} is ${row.state}; only failed, compensation_failed or stuck executions can be retried`,
        );
      }
      workflowOf(row);
      if (!(await journal.rearm(db, row, clock.now())))
        throw errors.conflict(`Workflow execution ${executionId} is being run by a live process`);
      if (options.scheduler)
        await options.scheduler.enqueue(executionId, { dedupeKey: `${executionId}-retry-${row.attempt}` });
      else void this.resume(executionId).catch(() => {});
      const updated = await journal.getExecution(db, executionId);
      return updated ?? row;
    },

    /**
     * Takes over, at once, every unfinished execution an earlier incarnation of this executor held
     * (the process this one replaces after a crash), whatever its lease, and runs them here in the
     * background. Call it once at start, after migrations, holding the executor identity (no other
     * live process has it: see `executor`). Returns how many it resumed.
     */
    resumeOwn(): Promise<number> {
      return tracked(async () => {
        if (options.executor === undefined) return 0;
        let resumed = 0;
        for (;;) {
          if (stopping) return resumed;
          const claimed = await journal.claimOwnExecutions(
            db,
            `${executor}#`,
            owner,
            clock.now(),
            leaseUntil(),
            OWN_BATCH,
          );
          for (const row of claimed) {
            const wf = registry.get(row.workflow_id);
            if (!wf) {
              // Another process that knows it takes it once the lease expires.
              await journal.releaseLease(db, row.id, owner);
              logger.warn({ executionId: row.id, workflow: row.workflow_id }, "cannot resume an unknown workflow");
              continue;
            }
            resumed += 1;
            void tracked(() => start(wf, row)).catch((error: unknown) => {
              if (!(error instanceof LeaseLost) && !isKasseError(error))
                logger.warn({ err: error, executionId: row.id }, "resume failed");
            });
          }
          if (claimed.length < OWN_BATCH) break;
        }
        if (resumed > 0)
          logger.info({ executor, executions: resumed }, "resumed the executions of this executor's previous process");
        return resumed;
      });
    },

    /** Queues every execution whose lease expired or whose compensation retry is due. Returns how many. */
    async recover(limit = 100): Promise<number> {
      const due = await journal.dueExecutions(db, clock.now(), limit);
      for (const { id, attempt } of due) {
        if (options.scheduler) await options.scheduler.enqueue(id, { dedupeKey: `${id}-${attempt}` });
        else
          await this.resume(id).catch((error: unknown) =>
            logger.warn({ err: error, executionId: id }, "resume failed"),
          );
      }
      return due.length;
    },

    /** One execution with its ordered step journal. */
    async retrieve(executionId: string): Promise<ExecutionDetail> {
      const row = await journal.getExecution(db, executionId);
      if (!row) throw errors.notFound(`Workflow execution with id: ${executionId} was not found`);
      return { ...row, steps: await journal.stepRunsOf(db, executionId) };
    },

    /** A page of executions with filters. */
    list: (filters: journal.ExecutionFilters, paging: { limit: number; offset: number; order?: string }) =>
      journal.listExecutions(db, filters, paging),

    /** The step runs (without outputs) of a page of executions, in one statement, ordered by execution and index. */
    stepSummaries: (executionIds: readonly string[]) => journal.stepSummariesOf(db, executionIds),

    /**
     * Graceful shutdown, at most `timeoutMs`. At once: no more claims of other work (`resume`, the
     * takeover of an expired execution). For the first half: the executions running here, and those
     * that requests still in flight start, may finish. Then halting: no new execution or step starts;
     * each run stops once its running steps finish and gives its lease back (another process resumes
     * it at once). Resolves with what is still running at the deadline: a step that outlived the
     * shutdown; its execution keeps its lease, so nobody else runs that step while it may still be
     * running, and is resumed after the lease expires.
     */
    async drain(timeoutMs = 10_000): Promise<{ unfinished: string[] }> {
      stopping = true;
      const begun = Date.now();
      const idle = await idleWithin(begun + timeoutMs / 2);
      if (!idle && !halting)
        logger.info({ executions: running.size }, "shutdown: workflow executions pause at their next step");
      // From here (and once drained) nothing new starts: the database is about to close.
      halting = true;
      startHalting();
      if (!idle) await idleWithin(begun + timeoutMs);
      const unfinished = [...running.keys()];
      if (unfinished.length > 0)
        logger.warn(
          { executionIds: unfinished, timeoutMs },
          "shutdown timeout: workflow steps still running; their executions resume after their lease expires",
        );
      return { unfinished };
    },
  };
  env.workflows = { execute: (wf, input, opts) => engine.execute(wf, input, opts) };
  return engine;
}

export type Engine = ReturnType<typeof createEngine>;
