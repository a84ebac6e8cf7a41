import { errors, fromJSON, KasseError, scrubError, toKasseError } from "@kasse/core";
import { currentHandle, lockKeys, onDatabase, transaction, withTimeout, type Db } from "@kasse/db";
import { asJson, backoffDelay } from "./backoff";
import * as journal from "./queries";
import type { ExecutionRow, StepRunRow } from "./schema";
import { collectSecrets, containsRedacted, journalCopy, SecretUnavailableError } from "./secrets";
import type { EventRecorder } from "./events";
import type { EngineObserver } from "./observer";
import type {
  AnyWorkflow,
  Clock,
  EngineLogger,
  Step,
  StepContext,
  ModulesFactory,
  OutsideStepContext,
  ChildWorkflows,
  WorkflowContext,
} from "./types";

/** This process no longer holds the execution's lease: another one took it over. Internal. */
export class LeaseLost extends Error {
  constructor(executionId: string) {
    super(`Lost the lease of workflow execution ${executionId}`);
  }
}

/**
 * The engine is shutting down: the run stopped before its next step (the steps already running
 * finished) and its lease is given back, so another process resumes it at once. Internal.
 */
export class Halted extends Error {
  constructor(executionId: string) {
    super(`Workflow execution ${executionId} paused: this process is shutting down`);
  }
}

/** A replay found a different step than its journal at the same index: the code changed under a running execution. */
export class WorkflowDivergenceError extends KasseError {
  constructor(message: string, details: Record<string, unknown>) {
    super("unexpected_state", message, { retryable: false, details });
    this.name = "WorkflowDivergenceError";
  }
}

/** Collecting step definitions for a compensation-only resume reached a step that never succeeded. */
class StopReplay extends Error {}

/** Another process finished this step first (its journal row is `succeeded`). */
class AlreadyDone extends Error {}

/** What a run needs from its engine. */
export interface RunEnv {
  db: Db;
  clock: Clock;
  logger: EngineLogger;
  owner: string;
  leaseMs: number;
  /** Gives every step's `ctx.modules`; a step reading them fails without it. */
  modules: ModulesFactory | undefined;
  /** Where `ctx.emit` writes (the `event` module's outbox); a step that emits fails without one. */
  events: EventRecorder | undefined;
  /** Told how runs end and which steps retry. */
  observer: EngineObserver | undefined;
  /** The engine's own `execute`, given to outside steps as `ctx.workflows`. */
  workflows: ChildWorkflows;
  /** Called (holding the lease) when a compensation still fails after its retries. */
  onCompensationFailed(row: ExecutionRow): Promise<void>;
  /** True once the engine is shutting down: runs start no new step and no new attempt. */
  halting(): boolean;
  /** Resolves when halting begins, to cut short a retry's backoff. */
  whenHalting: Promise<void>;
}

// A step as the runner sees it, whatever its input/output types.
type AnyStep = Step<unknown, unknown, unknown>;

interface Lease {
  readonly lost: boolean;
  stop(): void;
}

/** Renews the lease every third of its length; flags it lost when another process took it. */
function holdLease(env: RunEnv, executionId: string): Lease {
  let lost = false;
  let busy = false;
  const timer = setInterval(
    () => {
      if (busy) return;
      busy = true;
      journal
        .renewLease(env.db, executionId, env.owner, new Date(env.clock.now().getTime() + env.leaseMs))
        .then((held) => {
          if (!held) lost = true;
        })
        .catch((error: unknown) => env.logger.warn({ err: error, executionId }, "lease renewal failed"))
        .finally(() => {
          busy = false;
        });
    },
    Math.max(50, Math.floor(env.leaseMs / 3)),
  );
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Runs (or resumes) one execution whose lease this process holds: forward through the workflow
 * function, or straight to compensation for a `compensating`/`compensation_failed` one. A fresh
 * run gets the caller's `input` (with its secrets); a resumed one has only the journaled copy.
 */
export function runExecution(
  env: RunEnv,
  wf: AnyWorkflow,
  row: ExecutionRow,
  fresh = false,
  input: unknown = row.input,
): Promise<unknown> {
  // On the engine's database, outside any transaction of the caller: each transactional step opens
  // its own (`transaction`), and everything its code sends, journal row included, runs in it.
  return onDatabase(env.db, () => run(env, wf, row, fresh, input));
}

async function run(env: RunEnv, wf: AnyWorkflow, row: ExecutionRow, fresh: boolean, input: unknown): Promise<unknown> {
  const lease = holdLease(env, row.id);
  try {
    const steps = fresh ? [] : await journal.stepRunsOf(env.db, row.id);
    // A resumed run whose journal holds redactions may hand a step one in place of a secret.
    const lost =
      !fresh &&
      (containsRedacted(row.input) ||
        steps.some((s) => containsRedacted(s.output) || containsRedacted(s.compensate_input)));
    const run = new Run(env, wf, row, fresh ? input : row.input, steps, lease, lost);
    return row.state === "running" ? await run.forward() : await run.compensateOnly();
  } catch (error) {
    lease.stop();
    // Nothing of it runs any more: hand it over now rather than after the lease expires.
    if (error instanceof Halted) await journal.releaseLease(env.db, row.id, env.owner);
    throw error;
  } finally {
    lease.stop();
  }
}

class Run {
  private nextIndex = 0;
  private collecting = false;
  /** Set when a step of this run recorded an event (the dispatcher is told at success). */
  private emitted = false;
  /** Set when a step refused to start because the engine is shutting down. */
  private halted = false;
  private readonly defs = new Map<number, AnyStep>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly journal: Map<number, StepRunRow>;
  /** Every secret value this process has seen in the run: never journaled, logged or thrown. */
  private readonly secrets = new Set<string>();
  /** Compensation inputs of steps this process ran: the real ones, where the journal has redactions. */
  private readonly compensateInputs = new Map<number, unknown>();

  constructor(
    private readonly env: RunEnv,
    private readonly wf: AnyWorkflow,
    private readonly row: ExecutionRow,
    private readonly input: unknown,
    steps: StepRunRow[],
    private readonly lease: Lease,
    /** The journal this run replays holds redactions: a step about to run may get one instead of a secret. */
    private lost: boolean,
  ) {
    this.journal = new Map(steps.map((s) => [s.index, s]));
    collectSecrets(input, wf.secret.input, this.secrets);
  }

  /** A value as the journal may hold it: the fields at `paths` redacted, and any other copy of a known secret too. */
  private journaled(value: unknown, paths: readonly string[]): unknown {
    return journalCopy(value, paths, this.secrets);
  }

  /** Any failure as the typed error this run may journal, log and throw: without known secrets. */
  private clean(thrown: unknown): KasseError {
    return scrubError(toKasseError(thrown), this.secrets);
  }

  private get id() {
    return this.row.id;
  }

  private now() {
    return this.env.clock.now();
  }

  private context(): WorkflowContext {
    return {
      executionId: this.id,
      idempotencyKey: this.row.idempotency_key ?? this.id,
      run: <I, O, C>(step: Step<I, O, C>, input: I) => this.runStep(step as unknown as AnyStep, input) as Promise<O>,
      all: async <T extends readonly unknown[]>(runs: readonly [...T]) => {
        const settled = await Promise.allSettled(runs);
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
        if (failed) throw failed.reason;
        return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as {
          -readonly [K in keyof T]: Awaited<T[K]>;
        };
      },
    };
  }

  async forward(): Promise<unknown> {
    let result: unknown;
    try {
      result = await this.wf.fn(this.input, this.context());
      await this.settle();
      // A workflow that caught the pause of one of its steps has not run them all.
      if (this.halted) throw new Halted(this.id);
      this.checkNoLeftovers();
    } catch (thrown) {
      await this.settle();
      if (thrown instanceof LeaseLost) throw thrown;
      if (this.halted) throw new Halted(this.id);
      if (thrown instanceof WorkflowDivergenceError) {
        await this.finish({ state: "failed", error: thrown.toJSON() });
        this.env.logger.error(
          { executionId: this.id, workflow: this.wf.name, err: thrown },
          "workflow diverged from its journal",
        );
        throw thrown;
      }
      return this.compensate(this.clean(thrown));
    }
    const value = asJson(result);
    await this.finish({ state: "succeeded", result: this.journaled(value, this.wf.secret.result) });
    // A resumed run may release events that an earlier process recorded.
    if (this.emitted || this.journal.size > 0) this.env.events?.released?.(this.id);
    this.env.logger.info(
      { executionId: this.id, workflow: this.wf.name, state: "succeeded" },
      "workflow execution finished",
    );
    return value;
  }

  /** Resume of a compensating execution: replay only to learn the step definitions, then compensate. */
  async compensateOnly(): Promise<never> {
    this.collecting = true;
    try {
      await this.wf.fn(this.input, this.context());
    } catch (thrown) {
      if (thrown instanceof LeaseLost) throw thrown;
      if (!(thrown instanceof StopReplay))
        this.env.logger.warn(
          { executionId: this.id, err: this.clean(thrown) },
          "replay for compensation ended with an error",
        );
    }
    await this.settle();
    return this.compensate(
      this.row.error ? fromJSON(this.row.error) : errors.unexpectedState(`Workflow execution ${this.id} failed`),
    );
  }

  /** Stops the run before a new step or attempt while the engine shuts down. */
  private checkHalting(): void {
    if (!this.env.halting()) return;
    this.halted = true;
    throw new Halted(this.id);
  }

  /** A retry's backoff, cut short when the engine starts shutting down. */
  private pause(ms: number): Promise<void> {
    return Promise.race([this.env.clock.sleep(ms), this.env.whenHalting]);
  }

  private async finish(values: Parameters<typeof journal.setState>[4]): Promise<void> {
    const held = await journal.setState(this.env.db, this.id, this.env.owner, this.now(), {
      release: true,
      finished: true,
      next_retry_at: null,
      ...values,
    });
    if (!held) throw new LeaseLost(this.id);
    if (values.state === "succeeded" || values.state === "compensated" || values.state === "failed")
      this.env.observer?.finished(this.wf.name, values.state);
  }

  /** Waits for parallel steps still running (a sibling failed first) so compensation sees them all. */
  private async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private checkNoLeftovers(): void {
    const extra = [...this.journal.values()].find((s) => s.index >= this.nextIndex);
    if (extra) {
      throw new WorkflowDivergenceError(
        `Workflow '${this.wf.name}' diverged from the journal of execution ${this.id}: it finished after ${this.nextIndex} steps but the journal has step ${extra.index} ('${extra.name}')`,
        { index: extra.index, journaled: extra.name, ran: null },
      );
    }
  }

  private runStep(step: AnyStep, input: unknown): Promise<unknown> {
    // The index is taken synchronously, so `ctx.all([ctx.run(a), ctx.run(b)])` journals a before b on every replay.
    const index = this.nextIndex++;
    this.defs.set(index, step);
    const promise = this.stepAt(index, step, input);
    this.inflight.add(promise);
    const done = () => this.inflight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  private async stepAt(index: number, step: AnyStep, input: unknown): Promise<unknown> {
    if (this.lease.lost) throw new LeaseLost(this.id);
    const row = this.journal.get(index);
    if (row && row.name !== step.name) {
      throw new WorkflowDivergenceError(
        `Workflow '${this.wf.name}' diverged from the journal of execution ${this.id}: step ${index} is '${row.name}' in the journal but the code ran '${step.name}'`,
        { index, journaled: row.name, ran: step.name },
      );
    }
    collectSecrets(input, step.secret.input, this.secrets);
    if (row?.state === "succeeded") return row.output;
    if (this.collecting) throw new StopReplay();
    if (row?.state === "failed")
      throw row.error ? fromJSON(row.error) : errors.unexpectedState(`Step ${step.name} failed`);
    if (row && row.state !== "running")
      throw errors.unexpectedState(
        `Step ${index} ('${step.name}') of execution ${this.id} is ${row.state} in a running execution`,
      );
    return this.invoke(index, step, input, row?.attempts ?? 0, row?.started_at ?? this.now());
  }

  private baseContext(index: number, attempt: number, signal: AbortSignal) {
    return { executionId: this.id, idempotencyKey: `${this.id}:${index}`, index, attempt, signal };
  }

  /** Adds `ctx.modules`, asked for on first read: a step that reads no module pays nothing. */
  private withModules<T extends object>(ctx: T): T & { modules: unknown } {
    const factory = this.env.modules;
    let modules: unknown;
    return Object.defineProperty(ctx, "modules", {
      enumerable: true,
      get(): unknown {
        if (!factory)
          throw errors.unexpectedState(
            "This engine was built without modules (createEngine({ modules })): a step cannot read ctx.modules",
          );
        return (modules ??= factory());
      },
    }) as T & { modules: unknown };
  }

  /** `ctx.emit` of a transactional step: forward events wait for the execution's success, a compensation's do not. */
  private emitter(compensating: boolean) {
    return async (name: string, data: Record<string, unknown>) => {
      const events = this.env.events;
      if (!events)
        throw errors.unexpectedState(
          `Step emitted '${name}' but this engine records no events (createEngine({ events }))`,
        );
      await events.record({
        name,
        data: asJson(data) as Record<string, unknown>,
        execution_id: compensating ? null : this.id,
      });
      if (!compensating) this.emitted = true;
    };
  }

  /** The context of a transactional step, built inside the transaction the runner opened for it. */
  private txContext(
    index: number,
    attempt: number,
    signal: AbortSignal,
    compensating = false,
  ): StepContext & OutsideStepContext {
    return this.withModules({
      ...this.baseContext(index, attempt, signal),
      workflows: this.env.workflows,
      lock: (keys: readonly string[]) => lockKeys(keys),
      emit: this.emitter(compensating),
    });
  }

  private outsideContext(index: number, attempt: number, signal: AbortSignal): StepContext & OutsideStepContext {
    const noTx = () => {
      throw errors.unexpectedState("A transactional: false step has no transaction");
    };
    return this.withModules({
      ...this.baseContext(index, attempt, signal),
      workflows: this.env.workflows,
      lock: async () => noTx(),
      emit: async () => noTx(),
    });
  }

  /** Runs a step's attempts until one succeeds, the error is not retryable, or attempts run out. */
  private async invoke(
    index: number,
    step: AnyStep,
    input: unknown,
    previousAttempts: number,
    startedAt: Date,
  ): Promise<unknown> {
    const { db } = this.env;
    const base = { execution_id: this.id, index, name: step.name, started_at: startedAt };
    for (let attempt = previousAttempts + 1; ; attempt++) {
      if (this.lease.lost) throw new LeaseLost(this.id);
      this.checkHalting();
      // Aborted when the attempt times out: its late answer must then change nothing (`ctx.signal`).
      const abandoned = new AbortController();
      const timeout = () => {
        abandoned.abort();
        return errors.timeout(`Step '${step.name}' timed out after ${step.timeoutMs} ms`);
      };
      try {
        if (this.lost && containsRedacted(input)) {
          throw new SecretUnavailableError(
            `Step '${step.name}' of execution ${this.id} needs a secret that was not journaled (the process that started the execution stopped); run the operation again`,
          );
        }
        if (step.transactional) {
          return await transaction(async () => {
            if (step.timeoutMs !== undefined) await journal.limitStatements(currentHandle(), step.timeoutMs);
            const invoked = step.invoke(input, this.txContext(index, attempt, abandoned.signal));
            invoked.catch(() => {}); // after a timeout the attempt is abandoned; its late failure is not news
            const result = await withTimeout(invoked, step.timeoutMs, timeout);
            const done = this.succeeded(index, step, result);
            // The journal row joins the step's transaction: the step's writes and it commit together,
            // and only while this process holds the lease (the write is fenced on it; else all roll back).
            this.written(
              await journal.writeStep(currentHandle(), this.env.owner, {
                ...base,
                ...done.row,
                attempts: attempt,
                finished_at: this.now(),
              }),
            );
            return done.output;
          });
        }
        this.written(await journal.writeStep(db, this.env.owner, { ...base, state: "running", attempts: attempt }));
        const invoked = step.invoke(input, this.outsideContext(index, attempt, abandoned.signal));
        invoked.catch(() => {});
        const result = await withTimeout(invoked, step.timeoutMs, timeout);
        const done = this.succeeded(index, step, result);
        this.written(
          await journal.writeStep(db, this.env.owner, {
            ...base,
            ...done.row,
            attempts: attempt,
            finished_at: this.now(),
          }),
        );
        return done.output;
      } catch (thrown) {
        if (thrown instanceof AlreadyDone) return this.doneElsewhere(index);
        if (thrown instanceof LeaseLost) throw thrown;
        const error = this.clean(thrown);
        const final = !error.retryable || attempt >= step.retry.attempts;
        const written = await journal.writeStep(db, this.env.owner, {
          ...base,
          state: final ? "failed" : "running",
          attempts: attempt,
          error: error.toJSON(),
          finished_at: final ? this.now() : null,
        });
        if (written === "lost") throw new LeaseLost(this.id);
        if (written === "done") return this.doneElsewhere(index);
        if (final) throw error;
        this.env.observer?.stepRetried(this.wf.name, step.name);
        await this.pause(backoffDelay(step.retry, attempt));
      }
    }
  }

  /** Goes on after a journal write that wrote; throws when the step was done elsewhere or the lease is gone. */
  private written(outcome: journal.StepWrite): void {
    if (outcome === "lost") throw new LeaseLost(this.id);
    if (outcome === "done") throw new AlreadyDone();
  }

  /** A succeeded attempt: the real output for the workflow, and the journal row with its secrets redacted. */
  private succeeded(index: number, step: AnyStep, result: { output: unknown; compensateInput?: unknown }) {
    const output = asJson(result.output);
    const compensateInput = result.compensateInput === undefined ? output : asJson(result.compensateInput);
    const compensatePaths = result.compensateInput === undefined ? step.secret.output : step.secret.compensateInput;
    this.compensateInputs.set(index, compensateInput);
    const row = {
      state: "succeeded" as const,
      output: this.journaled(output, step.secret.output),
      compensate_input: this.journaled(compensateInput, compensatePaths),
      error: null,
    };
    return { output, row };
  }

  private async doneElsewhere(index: number): Promise<unknown> {
    this.compensateInputs.delete(index);
    const row = await journal.stepRun(this.env.db, this.id, index);
    if (row?.state !== "succeeded")
      throw errors.unexpectedState(`Step ${index} of execution ${this.id} changed under this process`);
    if (containsRedacted(row.output) || containsRedacted(row.compensate_input)) this.lost = true;
    return row.output;
  }

  /** Compensates every succeeded step in reverse order, then throws `error` (the original failure). */
  private async compensate(error: KasseError): Promise<never> {
    const { db, logger } = this.env;
    const done = (await journal.stepRunsOf(db, this.id))
      .filter((s) => s.state === "succeeded" || s.state === "compensation_failed")
      .sort((a, b) => b.index - a.index);
    if (done.length === 0) {
      await this.finish({ state: "failed", error: error.toJSON() });
      logger.info(
        { executionId: this.id, workflow: this.wf.name, state: "failed", error: error.type },
        "workflow execution finished",
      );
      throw error;
    }
    if (
      !(await journal.setState(db, this.id, this.env.owner, this.now(), {
        state: "compensating",
        error: error.toJSON(),
      }))
    )
      throw new LeaseLost(this.id);
    for (const stepRow of done) {
      // Paused between two compensations, it stays `compensating` and the next process goes on.
      this.checkHalting();
      const def = this.defs.get(stepRow.index);
      const compensated =
        def && def.name === stepRow.name ? await this.compensateStep(def, stepRow) : await this.undefinedStep(stepRow);
      if (!compensated) {
        await this.env.onCompensationFailed(this.row);
        throw error;
      }
    }
    await this.finish({ state: "compensated" });
    logger.info(
      { executionId: this.id, workflow: this.wf.name, state: "compensated", error: error.type },
      "workflow execution finished",
    );
    throw error;
  }

  private async undefinedStep(stepRow: StepRunRow): Promise<false> {
    const missing = errors.unexpectedState(
      `Cannot compensate step ${stepRow.index} ('${stepRow.name}'): the workflow no longer reaches it`,
    );
    await journal.compensationFailed(this.env.db, this.id, stepRow.index, missing.toJSON(), true);
    return false;
  }

  /** One step's compensation with its retries; true once it is journaled `compensated`. */
  private async compensateStep(def: AnyStep, stepRow: StepRunRow): Promise<boolean> {
    const { db } = this.env;
    const compensate = def.compensate;
    if (!compensate) {
      await journal.markCompensated(db, this.id, stepRow.index, this.now());
      return true;
    }
    const live = this.compensateInputs.has(stepRow.index);
    const compensateInput = live ? this.compensateInputs.get(stepRow.index) : stepRow.compensate_input;
    if (!live && this.lost && containsRedacted(compensateInput)) {
      // Retrying cannot bring the secret back: fail the compensation for an operator to see.
      const missing = new SecretUnavailableError(
        `Cannot compensate step ${stepRow.index} ('${def.name}') of execution ${this.id}: its compensation input was journaled without its secret`,
      );
      await journal.compensationFailed(db, this.id, stepRow.index, missing.toJSON(), true);
      this.env.logger.warn(
        { executionId: this.id, step: def.name, err: missing },
        "compensation needs a secret that was not journaled",
      );
      return false;
    }
    for (let attempt = 1; ; attempt++) {
      if (this.lease.lost) throw new LeaseLost(this.id);
      if (attempt > 1) this.checkHalting();
      const count = stepRow.compensation_attempts + attempt;
      const abandoned = new AbortController();
      const timeout = () => {
        abandoned.abort();
        return errors.timeout(`Compensation of step '${def.name}' timed out after ${def.timeoutMs} ms`);
      };
      try {
        if (def.transactional) {
          await transaction(async () => {
            // The journal update first: it locks the row, so a duplicate compensator waits, then finds it done.
            if (!(await journal.markCompensated(currentHandle(), this.id, stepRow.index, this.now()))) return;
            const undone = compensate(compensateInput, this.txContext(stepRow.index, count, abandoned.signal, true));
            undone.catch(() => {});
            await withTimeout(undone, def.timeoutMs, timeout);
          });
        } else {
          const undone = compensate(compensateInput, this.outsideContext(stepRow.index, count, abandoned.signal));
          undone.catch(() => {});
          await withTimeout(undone, def.timeoutMs, timeout);
          await journal.markCompensated(db, this.id, stepRow.index, this.now());
        }
        return true;
      } catch (thrown) {
        if (thrown instanceof LeaseLost) throw thrown;
        const error = this.clean(thrown);
        // Compensations retry whatever the error: giving up would leave an effect behind.
        const final = attempt >= def.retry.attempts;
        await journal.compensationFailed(db, this.id, stepRow.index, error.toJSON(), final);
        this.env.logger.warn(
          { executionId: this.id, step: def.name, attempt: count, err: error },
          "compensation attempt failed",
        );
        if (final) return false;
        await this.pause(backoffDelay(def.retry, attempt));
      }
    }
  }
}
