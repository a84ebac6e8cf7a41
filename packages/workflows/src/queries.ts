import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { type SerializedError } from "@kasse/core";
import {
  builtStatement,
  db as ambient,
  inList,
  pgErrorCode,
  listPage,
  onDatabase,
  orderBy,
  rangeConditions,
  type Db,
  type Paging,
  type Placeholders,
  type RangeFilter,
} from "@kasse/db";
import {
  workflowExecutions as executions,
  workflowStepRuns as stepRuns,
  type ExecutionRow,
  type ExecutionState,
  type StepRunRow,
  type StepState,
} from "./schema";

// Every read and write of the two journal tables, and the engine's other SQL. Each function is one
// statement (one round trip).

/** Cancels any statement of the current transaction that runs longer than `ms` (a step's timeout). */
export async function limitStatements(db: Db, ms: number): Promise<void> {
  await db.execute(sql`select set_config('statement_timeout', ${String(ms)}, true)`);
}

const ACTIVE: ExecutionState[] = ["running", "compensating"];

/** Inserts an execution, or returns the existing one with the same workflow and idempotency key. */
export async function insertExecution(
  db: Db,
  values: {
    id: string;
    workflow_id: string;
    idempotency_key: string | null;
    transaction_id: string;
    input: unknown;
    owner: string | null;
    leaseUntil: Date | null;
    now: Date;
  },
): Promise<{ row: ExecutionRow; created: boolean }> {
  const [created] = await executionInsert(db, {
    id: values.id,
    workflow_id: values.workflow_id,
    idempotency_key: values.idempotency_key,
    transaction_id: values.transaction_id,
    input: values.input,
    attempt: values.owner ? 1 : 0,
    lease_owner: values.owner,
    lease_expires_at: values.leaseUntil,
    now: values.now,
  });
  if (created) return { row: created, created: true };
  const existing = await findByKey(db, values.workflow_id, values.idempotency_key ?? "");
  if (!existing)
    throw new Error(`workflow execution ${values.workflow_id}/${values.idempotency_key} vanished after a conflict`);
  return { row: existing, created: false };
}

// Every saga run starts with it: built once per shape.
const executionInsert = builtStatement(
  (
    v: Placeholders<{
      id: string;
      workflow_id: string;
      idempotency_key: string | null;
      transaction_id: string;
      input: unknown;
      attempt: number;
      lease_owner: string | null;
      lease_expires_at: Date | null;
      now: Date;
    }>,
    db,
  ) =>
    db
      .insert(executions)
      .values({
        id: v.id,
        workflow_id: v.workflow_id,
        idempotency_key: v.idempotency_key,
        transaction_id: v.transaction_id,
        state: "running",
        input: v.input,
        attempt: v.attempt,
        lease_owner: v.lease_owner,
        lease_expires_at: v.lease_expires_at,
        created_at: v.now,
        updated_at: v.now,
      })
      .onConflictDoNothing({ target: [executions.workflow_id, executions.idempotency_key] })
      .returning(),
);

/** How many executions of `workflowId` under `transactionId` ended failed or compensated. */
export async function failedAttempts(db: Db, workflowId: string, transactionId: string): Promise<number> {
  const [row] = await failedCount(db, { workflow_id: workflowId, transaction_id: transactionId });
  return Number(row?.n ?? 0);
}

// Asked before every checkout (`freshAfterFailure`): built once.
const failedCount = builtStatement((v: Placeholders<{ workflow_id: string; transaction_id: string }>, db) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(executions)
    .where(
      and(
        eq(executions.workflow_id, v.workflow_id),
        eq(executions.transaction_id, v.transaction_id),
        inArray(executions.state, ["failed", "compensated"]),
      ),
    ),
);

async function findByKey(db: Db, workflowId: string, key: string): Promise<ExecutionRow | undefined> {
  const [row] = await executionByKey(db, { workflow_id: workflowId, key });
  return row;
}

// The statements below run for every saga, or on every recovery sweep (a resume, a compensation):
// each built once. A time compared in a where clause is sent as ISO text (`at`): a placeholder
// there gets no column encoder, unlike a value that is set.
const executionByKey = builtStatement((v: Placeholders<{ workflow_id: string; key: string }>, db) =>
  db
    .select()
    .from(executions)
    .where(and(eq(executions.workflow_id, v.workflow_id), eq(executions.idempotency_key, v.key))),
);

/** An execution by id. */
export async function getExecution(db: Db, id: string): Promise<ExecutionRow | undefined> {
  const [row] = await executionById(db, { id });
  return row;
}

const executionById = builtStatement((v: Placeholders<{ id: string }>, db) =>
  db.select().from(executions).where(eq(executions.id, v.id)),
);

/**
 * Takes the lease of an execution that nobody holds (or whose holder's lease expired) and is
 * due: active, or `compensation_failed` with its retry time reached and not dead-lettered.
 */
export async function claimExecution(
  db: Db,
  id: string,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<ExecutionRow | undefined> {
  const [row] = await executionClaim(db, { id, owner, lease_until: leaseUntil, now, at: now.toISOString() });
  return row;
}

// A compensation-failed execution whose retry time (`at`, ISO text) has come, not dead-lettered:
// the sweep picks it, and a claim may take it.
const retryDue = (v: Placeholders<{ at: string }>) =>
  and(
    eq(executions.state, "compensation_failed"),
    isNull(executions.dead_lettered_at),
    lte(executions.next_retry_at, v.at),
  );

/** The advisory lock key by which a live process holds the executor identity `identity` (see {@link ownerGone}). */
export const executorLockKey = (identity: string) => `kasse-executor:${identity}`;

// The execution's owner is an executor identity (`<identity>#<incarnation>`) whose lock no session
// holds: its process is gone (a crash drops its connection, and the lock with it), so the lease
// need not be waited out. Owners without `#` (one-off processes) hold no lock: only their lease counts.
const ownerGone = sql`(position('#' in ${executions.lease_owner}) > 0 and not exists (
  select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 1
    and l.database = (select oid from pg_database where datname = current_database())
    and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('kasse-executor:' || split_part(${executions.lease_owner}, '#', 1), 0)
))`;

/** What a claim writes: the new owner, its lease, one more attempt. */
const claimedBy = (v: Placeholders<{ owner: string; lease_until: Date; now: Date }>) => ({
  lease_owner: v.owner,
  lease_expires_at: v.lease_until,
  attempt: sql`${executions.attempt} + 1`,
  updated_at: v.now,
});

const executionClaim = builtStatement(
  (v: Placeholders<{ id: string; owner: string; lease_until: Date; now: Date; at: string }>, db) =>
    db
      .update(executions)
      .set(claimedBy(v))
      .where(
        and(
          eq(executions.id, v.id),
          or(
            isNull(executions.lease_owner),
            isNull(executions.lease_expires_at),
            lt(executions.lease_expires_at, v.at),
            ownerGone,
          ),
          or(inArray(executions.state, ACTIVE), retryDue(v)),
        ),
      )
      .returning(),
);

/**
 * Takes over the active executions held by an earlier incarnation of the executor whose owners
 * start with `prefix` (`<executor>#`), whatever their lease: the caller holds the executor's
 * identity, so that incarnation is gone. At most `limit`, oldest first.
 */
export async function claimOwnExecutions(
  db: Db,
  prefix: string,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ExecutionRow[]> {
  return ownClaim(db, { prefix, owner, lease_until: leaseUntil, now, limit });
}

const ownClaim = builtStatement(
  (v: Placeholders<{ prefix: string; owner: string; lease_until: Date; now: Date; limit: number }>, db) =>
    db
      .update(executions)
      .set(claimedBy(v))
      .where(
        inArray(
          executions.id,
          db
            .select({ id: executions.id })
            .from(executions)
            .where(
              and(
                inArray(executions.state, ACTIVE),
                sql`starts_with(${executions.lease_owner}, ${v.prefix})`,
                ne(executions.lease_owner, v.owner),
              ),
            )
            .orderBy(asc(executions.updated_at))
            .limit(v.limit)
            .for("update", { skipLocked: true }),
        ),
      )
      .returning(),
);

/** Extends the lease; false when another process took it over. */
export async function renewLease(db: Db, id: string, owner: string, leaseUntil: Date): Promise<boolean> {
  const rows = await leaseRenewal(db, { id, owner, lease_until: leaseUntil });
  return rows.length > 0;
}

const leaseRenewal = builtStatement((v: Placeholders<{ id: string; owner: string; lease_until: Date }>, db) =>
  db
    .update(executions)
    .set({ lease_expires_at: v.lease_until })
    .where(and(eq(executions.id, v.id), eq(executions.lease_owner, v.owner)))
    .returning({ id: executions.id }),
);

/** Moves the execution to a new state if `owner` still holds it; false when the lease was lost. */
export async function setState(
  db: Db,
  id: string,
  owner: string,
  now: Date,
  values: {
    state: ExecutionState;
    result?: unknown;
    error?: SerializedError | null;
    release?: boolean;
    finished?: boolean;
    next_retry_at?: Date | null;
    dead_lettered_at?: Date | null;
  },
): Promise<boolean> {
  const rows = await stateWrite(db, {
    id,
    owner,
    now,
    state: values.state,
    result: values.result,
    error: values.error,
    lease_owner: values.release ? null : undefined,
    lease_expires_at: values.release ? null : undefined,
    finished_at: values.finished ? now : undefined,
    next_retry_at: values.next_retry_at,
    dead_lettered_at: values.dead_lettered_at,
  });
  return rows.length > 0;
}

// Every execution moves through two or more states: built once per shape.
const stateWrite = builtStatement(
  (
    v: Placeholders<{
      id: string;
      owner: string;
      now: Date;
      state: ExecutionState;
      result?: unknown;
      error?: SerializedError | null;
      lease_owner?: string | null;
      lease_expires_at?: Date | null;
      finished_at?: Date;
      next_retry_at?: Date | null;
      dead_lettered_at?: Date | null;
    }>,
    db,
  ) =>
    db
      .update(executions)
      .set({
        state: v.state,
        result: v.result,
        error: v.error,
        lease_owner: v.lease_owner,
        lease_expires_at: v.lease_expires_at,
        finished_at: v.finished_at,
        next_retry_at: v.next_retry_at,
        dead_lettered_at: v.dead_lettered_at,
        updated_at: v.now,
      })
      .where(and(eq(executions.id, v.id), eq(executions.lease_owner, v.owner)))
      .returning({ id: executions.id }),
);

/** Gives the lease back without changing the state (a process stopping). */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await leaseRelease(db, { id, owner });
}

const leaseRelease = builtStatement((v: Placeholders<{ id: string; owner: string }>, db) =>
  db
    .update(executions)
    .set({ lease_owner: null, lease_expires_at: null })
    .where(and(eq(executions.id, v.id), eq(executions.lease_owner, v.owner))),
);

/** An execution's step runs, in order. */
export async function stepRunsOf(db: Db, executionId: string): Promise<StepRunRow[]> {
  return stepRunsOfExecution(db, { id: executionId });
}

const stepRunsOfExecution = builtStatement((v: Placeholders<{ id: string }>, db) =>
  db.select().from(stepRuns).where(eq(stepRuns.execution_id, v.id)).orderBy(asc(stepRuns.index)),
);

/** The step runs of a page of executions in one statement (no outputs, errors or compensation inputs): what a list shows of them. */
export async function stepSummariesOf(db: Db, executionIds: readonly string[]): Promise<StepSummary[]> {
  if (executionIds.length === 0) return [];
  return db
    .select({
      execution_id: stepRuns.execution_id,
      index: stepRuns.index,
      name: stepRuns.name,
      state: stepRuns.state,
      attempts: stepRuns.attempts,
      started_at: stepRuns.started_at,
    })
    .from(stepRuns)
    .where(inList(stepRuns.execution_id, executionIds))
    .orderBy(asc(stepRuns.execution_id), asc(stepRuns.index));
}

/** A step run as a list shows it ({@link stepSummariesOf}). */
export type StepSummary = Pick<StepRunRow, "execution_id" | "index" | "name" | "state" | "attempts" | "started_at">;

export async function stepRun(db: Db, executionId: string, index: number): Promise<StepRunRow | undefined> {
  const [row] = await stepRunAt(db, { id: executionId, index });
  return row;
}

const stepRunAt = builtStatement((v: Placeholders<{ id: string; index: number }>, db) =>
  db
    .select()
    .from(stepRuns)
    .where(and(eq(stepRuns.execution_id, v.id), eq(stepRuns.index, v.index))),
);

const notSucceeded = sql`${stepRuns.state} <> 'succeeded'`;

/** What {@link writeStep} did: wrote the row, found it succeeded already (another process finished the step), or found the lease gone. */
export type StepWrite = "written" | "done" | "lost";

/**
 * Writes a step run if `owner` still holds the execution's lease, unless the step already
 * succeeded. The lease is the fence: the statement share-locks the execution row where
 * `lease_owner` is `owner`, so inside a step's transaction no process can take the execution
 * over between this write and the commit (a claim waits for the lock; one committed before makes
 * this write fail and the step's transaction roll back: `lost`). A duplicate writer waits on the
 * step row's lock, then finds it succeeded (`done`).
 */
export async function writeStep(
  db: Db,
  owner: string,
  row: {
    execution_id: string;
    index: number;
    name: string;
    state: StepState;
    attempts: number;
    output?: unknown;
    compensate_input?: unknown;
    error?: SerializedError | null;
    started_at?: Date;
    finished_at?: Date | null;
  },
): Promise<StepWrite> {
  try {
    const written = await stepWrite(db, { ...row, owner });
    return written.length > 0 ? "written" : "done";
  } catch (error) {
    // The fence's subquery found no execution held by `owner`: the row's key is null.
    if (pgErrorCode(error) === "23502") return "lost";
    throw error;
  }
}

// Every step of every saga writes its run once or twice: built once per shape (which of the
// optional fields it sets, and which of them to null). Its execution id is the fence: the id of
// the execution row only while `owner` holds it (share-locked until the commit), else null.
const stepWrite = builtStatement(
  (
    v: Placeholders<{
      execution_id: string;
      owner: string;
      index: number;
      name: string;
      state: StepState;
      attempts: number;
      output?: unknown;
      compensate_input?: unknown;
      error?: SerializedError | null;
      started_at?: Date;
      finished_at?: Date | null;
    }>,
    db,
  ) => {
    // The columns a conflict updates: those given (a key left undefined is undefined among the placeholders).
    const given = (column: string) => (v as Record<string, unknown>)[column] !== undefined;
    const updated = ["state", "attempts", ...["output", "compensate_input", "error", "finished_at"].filter(given)];
    const held = sql`(select ${executions.id} from ${executions} where ${executions.id} = ${v.execution_id} and ${executions.lease_owner} = ${v.owner} for share)`;
    return db
      .insert(stepRuns)
      .values({
        execution_id: held,
        index: v.index,
        name: v.name,
        state: v.state,
        attempts: v.attempts,
        output: v.output,
        compensate_input: v.compensate_input,
        error: v.error,
        started_at: v.started_at,
        finished_at: v.finished_at,
      })
      .onConflictDoUpdate({
        target: [stepRuns.execution_id, stepRuns.index],
        set: Object.fromEntries(updated.map((column) => [column, sql`excluded.${sql.identifier(column)}`])),
        setWhere: notSucceeded,
      })
      .returning({ index: stepRuns.index });
  },
);

/** Marks a succeeded step compensated (one statement that also locks the row); false when someone else already did. */
export async function markCompensated(db: Db, executionId: string, index: number, now: Date): Promise<boolean> {
  const rows = await compensatedWrite(db, { id: executionId, index, now });
  return rows.length > 0;
}

const compensatedWrite = builtStatement((v: Placeholders<{ id: string; index: number; now: Date }>, db) =>
  db
    .update(stepRuns)
    .set({
      state: "compensated",
      compensated_at: v.now,
      compensation_attempts: sql`${stepRuns.compensation_attempts} + 1`,
      error: null,
    })
    .where(
      and(
        eq(stepRuns.execution_id, v.id),
        eq(stepRuns.index, v.index),
        inArray(stepRuns.state, ["succeeded", "compensation_failed"]),
      ),
    )
    .returning({ index: stepRuns.index }),
);

/** Records a failed compensation attempt. */
export async function compensationFailed(
  db: Db,
  executionId: string,
  index: number,
  error: SerializedError,
  final: boolean,
): Promise<void> {
  await (final ? lastCompensationFailed : compensationAttemptFailed)(db, { id: executionId, index, error });
}

// A failed compensation attempt; the last one also marks the step `compensation_failed`.
const compensationFailedWrite = (final: boolean) =>
  builtStatement((v: Placeholders<{ id: string; index: number; error: SerializedError }>, db) =>
    db
      .update(stepRuns)
      .set({
        compensation_attempts: sql`${stepRuns.compensation_attempts} + 1`,
        error: v.error,
        ...(final ? { state: "compensation_failed" as const } : {}),
      })
      .where(and(eq(stepRuns.execution_id, v.id), eq(stepRuns.index, v.index), ne(stepRuns.state, "compensated"))),
  );
const lastCompensationFailed = compensationFailedWrite(true);
const compensationAttemptFailed = compensationFailedWrite(false);

/** Executions whose process died (lease expired, or its executor identity no longer held) or whose compensation retry is due. */
export async function dueExecutions(
  db: Db,
  now: Date,
  limit: number,
): Promise<Array<Pick<ExecutionRow, "id" | "attempt">>> {
  return dueExecutionsSelect(db, { at: now.toISOString(), limit });
}

const dueExecutionsSelect = builtStatement((v: Placeholders<{ at: string; limit: number }>, db) =>
  db
    .select({ id: executions.id, attempt: executions.attempt })
    .from(executions)
    .where(
      or(
        and(
          inArray(executions.state, ACTIVE),
          or(isNull(executions.lease_expires_at), lt(executions.lease_expires_at, v.at), ownerGone),
        ),
        retryDue(v),
      ),
    )
    .orderBy(asc(executions.updated_at))
    .limit(v.limit),
);

/** Makes a failed, compensation-failed or stuck execution runnable again (admin retry). */
export async function rearm(db: Db, row: ExecutionRow, now: Date): Promise<boolean> {
  const base = and(
    eq(executions.id, row.id),
    eq(executions.state, row.state),
    or(isNull(executions.lease_owner), isNull(executions.lease_expires_at), lt(executions.lease_expires_at, now)),
  );
  if (row.state === "failed") {
    // Forget the failed attempt so the replay runs the step again.
    await db
      .delete(stepRuns)
      .where(and(eq(stepRuns.execution_id, row.id), inArray(stepRuns.state, ["failed", "running"])));
    const rows = await db
      .update(executions)
      .set({
        state: "running",
        error: null,
        finished_at: null,
        lease_owner: null,
        lease_expires_at: null,
        updated_at: now,
      })
      .where(base)
      .returning({ id: executions.id });
    return rows.length > 0;
  }
  const rows = await db
    .update(executions)
    .set({ next_retry_at: now, dead_lettered_at: null, lease_owner: null, lease_expires_at: null, updated_at: now })
    .where(base)
    .returning({ id: executions.id });
  return rows.length > 0;
}

/** Filters of the admin list. */
export interface ExecutionFilters {
  workflow_id?: string[];
  state?: ExecutionState[];
  transaction_id?: string[];
  created_at?: RangeFilter<Date>;
}

/** One page of executions (newest first by default) and the total count. */
export async function listExecutions(
  db: Db,
  filters: ExecutionFilters,
  paging: Paging & { order?: string },
): Promise<{ items: ExecutionRow[]; count: number }> {
  const conditions: SQL[] = [...rangeConditions(executions.created_at, filters.created_at)];
  if (filters.workflow_id) conditions.push(inArray(executions.workflow_id, filters.workflow_id));
  if (filters.state) conditions.push(inArray(executions.state, filters.state));
  if (filters.transaction_id) conditions.push(inArray(executions.transaction_id, filters.transaction_id));
  const where = conditions.length ? and(...conditions) : undefined;
  const columns = {
    created_at: executions.created_at,
    updated_at: executions.updated_at,
    workflow_id: executions.workflow_id,
    state: executions.state,
  };
  // On the engine's own database (a test plays a second process on another one).
  return onDatabase(db, () =>
    listPage(executions, where, orderBy(paging.order, columns, executions.id, "-created_at"), paging),
  );
}

/**
 * How long after its lease expired an execution counts as stuck (`kasse check`): a live process
 * renews its lease every third of it, so one slowed by load may let it lapse briefly, and a sweep
 * every `recoveryEveryMs` resumes a dead process's executions. One still expired after another
 * whole lease and three sweeps was missed, not merely late (15 s with the defaults: 9 s, 2 s).
 * @example
 * stuckAfterMs({ leaseMs: 9_000, recoveryEveryMs: 2_000 }); // 15_000
 */
export function stuckAfterMs(timing: { leaseMs: number; recoveryEveryMs: number }): number {
  return timing.leaseMs + 3 * timing.recoveryEveryMs;
}

/**
 * Executions the recovery sweep should have taken and did not (`kasse check`, on the current
 * handle: its snapshot): active ones whose lease expired (or that were released) more than
 * `overdueMs` ago, and `compensation_failed` ones with no retry planned (dead-lettered, or never
 * scheduled). At most `limit`, oldest first.
 */
export async function overdueExecutions(
  overdueMs: number,
  limit: number,
): Promise<Array<{ id: string; problem: string }>> {
  const since = sql`now() - make_interval(secs => ${overdueMs / 1000})`;
  const rows = await ambient
    .select({
      id: executions.id,
      workflow_id: executions.workflow_id,
      state: executions.state,
      lease_expires_at: executions.lease_expires_at,
      updated_at: executions.updated_at,
      dead_lettered_at: executions.dead_lettered_at,
    })
    .from(executions)
    .where(
      or(
        and(
          inArray(executions.state, ACTIVE),
          sql`coalesce(${executions.lease_expires_at}, ${executions.updated_at}) < ${since}`,
        ),
        and(eq(executions.state, "compensation_failed"), isNull(executions.next_retry_at)),
      ),
    )
    .orderBy(asc(executions.updated_at), asc(executions.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    problem:
      r.state === "compensation_failed"
        ? `${r.workflow_id}: compensation failed and no retry is planned${r.dead_lettered_at ? ` (dead-lettered ${r.dead_lettered_at.toISOString()})` : ""}`
        : `${r.workflow_id}: ${r.state} but its lease expired ${(r.lease_expires_at ?? r.updated_at).toISOString()} and no process resumed it`,
  }));
}

/** Which of these idempotency keys of `workflowId` have an execution still running or compensating (on the current handle). */
export async function activeExecutionKeys(workflowId: string, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await ambient
    .select({ key: executions.idempotency_key })
    .from(executions)
    .where(
      and(
        eq(executions.workflow_id, workflowId),
        inArray(executions.idempotency_key, keys),
        inArray(executions.state, ACTIVE),
      ),
    );
  return new Set(rows.map((r) => r.key!));
}
