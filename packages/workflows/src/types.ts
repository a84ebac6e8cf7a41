import type { SecretPath } from "./secrets";

/** How a step is retried: `attempts` in all (1 = no retry), exponential backoff from `backoffMs` with jitter, capped. */
export interface RetryPolicy {
  attempts: number;
  backoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Builds what steps get as `ctx.modules`, `M`: the process's module services, built once
 * (`createEngine({ modules: () => modules })`), so workflow and step definitions stay static. The
 * engine knows no module: `M` is a type parameter of the steps (see `definitions`).
 */
export type ModulesFactory<M = unknown> = () => M;

/** What every step's `invoke` and `compensate` receive; `M` is what it reads as `ctx.modules`. */
export interface BaseStepContext<M = unknown> {
  executionId: string;
  /**
   * The module services (see {@link ModulesFactory}): in a transactional step everything they send runs
   * in the step's transaction (it is ambient), so its writes commit with its journal row.
   */
  modules: M;
  /** `<executionId>:<index>`: stable across retries and resumes; pass it to outside systems. */
  idempotencyKey: string;
  /** The step's index in the workflow (its journal position). */
  index: number;
  /** 1 on the first try, counting across retries and resumes. */
  attempt: number;
  /**
   * Aborted when this attempt times out (`timeoutMs`): the engine has moved on (a retry, or the
   * compensation), so an outside call answering late must not write its result.
   */
  signal: AbortSignal;
}

/**
 * Context of a transactional step: its writes and its journal row commit together in the step's
 * transaction, which is ambient (module methods and `db` of `@kasse/db` run in it).
 */
export interface StepContext<M = unknown> extends BaseStepContext<M> {
  /** Takes transaction-scoped advisory locks on `keys`, in sorted order (no deadlocks between callers). */
  lock(keys: readonly string[]): Promise<void>;
  /**
   * Records a domain event (`order.placed`, see the `event` module's catalog) in the step's
   * transaction. Recorded by `invoke`, it is released only when the whole execution succeeds (a
   * compensated execution releases none); recorded by `compensate`, when that compensation commits.
   */
  emit(name: string, data: Record<string, unknown>): Promise<void>;
}

/** Context of a `transactional: false` step (an outside effect): no transaction is held open across it. */
export interface OutsideStepContext<M = unknown> extends BaseStepContext<M> {
  /**
   * The engine's `execute`, for a step that joins another workflow's execution by its key (a payment
   * webhook joining checkout's, keyed on the cart) and waits for its outcome. Outside a
   * transaction only: the other execution journals its own steps.
   */
  workflows: ChildWorkflows;
}

/** What a `transactional: false` step may run of other workflows (see {@link OutsideStepContext.workflows}). */
export interface ChildWorkflows {
  execute<I, R>(wf: Workflow<I, R>, input: I, opts?: ExecuteOptions): Promise<R>;
}

/** What `invoke` returns: the output the workflow sees and what `compensate` will get (default: the output). */
export interface StepResult<O, C> {
  output: O;
  compensateInput?: C;
}

/**
 * Fields of a step that are secret (a password hash, a token): the journal stores a redaction in
 * their place. `input` is never journaled, but naming its secrets keeps them out of journaled
 * errors and lets a resumed execution fail cleanly when they are gone (see the README).
 */
export interface StepSecrets<I, O, C> {
  input?: ReadonlyArray<SecretPath<I>>;
  output?: ReadonlyArray<SecretPath<O>>;
  compensateInput?: ReadonlyArray<SecretPath<C>>;
}

interface StepOptionsBase {
  retry?: RetryPolicy;
  /** An attempt running longer than this fails with a retryable `timeout` error. */
  timeoutMs?: number;
}

/** Options of a step whose effect is a write to Kasse's own database (exactly once). */
export interface TransactionalStepOptions<I, O, C, M = unknown> extends StepOptionsBase {
  transactional?: true;
  secret?: StepSecrets<I, O, C>;
  invoke: (input: I, ctx: StepContext<M>) => Promise<StepResult<O, C>>;
  compensate?: (compensateInput: C, ctx: StepContext<M>) => Promise<void>;
}

/** Options of a step whose effect is outside the database (at least once: use `ctx.idempotencyKey`). */
export interface OutsideStepOptions<I, O, C, M = unknown> extends StepOptionsBase {
  transactional: false;
  secret?: StepSecrets<I, O, C>;
  invoke: (input: I, ctx: OutsideStepContext<M>) => Promise<StepResult<O, C>>;
  compensate?: (compensateInput: C, ctx: OutsideStepContext<M>) => Promise<void>;
}

/**
 * A defined step. The phantom `__types` carries I/O/C so `ctx.run` infers them without casts. `M` is
 * what it reads as `ctx.modules`: a workflow over modules `W` runs it when `W` has all of `M`.
 */
export interface Step<I, O, C = O, M = unknown> {
  readonly kind: "step";
  readonly name: string;
  readonly transactional: boolean;
  readonly retry: Required<RetryPolicy>;
  readonly timeoutMs: number | undefined;
  /** Paths of secret fields, as given (empty when none). */
  readonly secret: {
    readonly input: readonly string[];
    readonly output: readonly string[];
    readonly compensateInput: readonly string[];
  };
  readonly invoke: (input: I, ctx: StepContext<M> & OutsideStepContext<M>) => Promise<StepResult<O, C>>;
  readonly compensate: ((compensateInput: C, ctx: StepContext<M> & OutsideStepContext<M>) => Promise<void>) | undefined;
  readonly __types?: { input: I; output: O; compensateInput: C };
}

/** What a workflow function receives; its steps read `M` (or a part of it) as `ctx.modules`. */
export interface WorkflowContext<M = unknown> {
  executionId: string;
  /** The execution's idempotency key (or its id when none was given). */
  idempotencyKey: string;
  /**
   * Runs a step, or returns its journaled output when a previous run of this execution already
   * finished it. Its journal index is taken when `run` is called, so call it in a fixed order.
   */
  run<I, O, C>(step: Step<I, O, C, M>, input: I): Promise<O>;
  /** Runs steps in parallel (`ctx.all([ctx.run(a, x), ctx.run(b, y)])`); waits for all, then throws the first failure by index. */
  all<T extends readonly unknown[]>(runs: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }>;
}

/** Options of a workflow: the secret fields of its input and result (journaled as a redaction). */
export interface WorkflowOptions<I, R> {
  secret?: { input?: ReadonlyArray<SecretPath<I>>; result?: ReadonlyArray<SecretPath<R>> };
}

/** A defined workflow: a deterministic function of its input and of `ctx.run` results. */
export interface Workflow<I, R, M = unknown> {
  readonly kind: "workflow";
  readonly name: string;
  readonly fn: (input: I, ctx: WorkflowContext<M>) => Promise<R>;
  /** Paths of secret fields, as given (empty when none). */
  readonly secret: { readonly input: readonly string[]; readonly result: readonly string[] };
  readonly __types?: { input: I; result: R };
}

/** Any workflow, for registries (`allWorkflows`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWorkflow = Workflow<any, any>;

/** Time source; tests may replace it. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

/** The logger the engine writes to (pino-compatible). */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of `engine.execute` and `engine.enqueue`. */
export interface ExecuteOptions {
  /** A second `execute` of the same workflow with this key returns the first one's result. */
  idempotencyKey?: string;
  /** Medusa's transaction id (admin filter); defaults to the idempotency key, else the execution id. */
  transactionId?: string;
  /**
   * With an idempotency key: an attempt that failed or was compensated (a declined card) does not
   * answer for the key forever; the next call starts a fresh execution. Executions are keyed
   * `<key>:<failed attempts so far>` under the transaction id (default: the key), so concurrent
   * callers still share the attempt under way, and one still compensating keeps its key until done.
   */
  freshAfterFailure?: boolean;
}
