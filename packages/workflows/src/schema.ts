import { type SerializedError } from "@kasse/core";
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "@kasse/db";
import { RowView, parentId, timestamptz, createdAt, indexes } from "@kasse/db";

/** Where an execution is: `running` → `succeeded`, or → (`compensating` →) `compensated` / `compensation_failed`, or `failed`. */
export type ExecutionState =
  "running" | "succeeded" | "failed" | "compensating" | "compensated" | "compensation_failed";

/** Where one step run is. `running` also covers an attempt that failed and will be retried. */
export type StepState = "running" | "succeeded" | "failed" | "compensated" | "compensation_failed";

/** One row per workflow execution: the saga's journal head, its lease and its outcome. */
export const workflowExecutions = pgTable(
  "workflow_executions",
  {
    id: text("id").primaryKey(),
    workflow_id: text("workflow_id").notNull(),
    /** Caller-chosen key: a second `execute` with it gets this execution's result. */
    idempotency_key: text("idempotency_key"),
    /** Medusa's transaction id; the idempotency key when given, else the execution id. */
    transaction_id: text("transaction_id").notNull(),
    state: text("state").$type<ExecutionState>().notNull(),
    input: jsonb("input").$type<unknown>(),
    result: jsonb("result").$type<unknown>(),
    error: jsonb("error").$type<SerializedError>(),
    /** How many times a process has taken this execution (first run, resumes, background compensation retries). */
    attempt: integer("attempt").notNull().default(0),
    lease_owner: text("lease_owner"),
    lease_expires_at: timestamptz("lease_expires_at"),
    /** When a `compensation_failed` execution is due for its next background retry. */
    next_retry_at: timestamptz("next_retry_at"),
    /** Set when background compensation gave up: an operator must look (dead letter). */
    dead_lettered_at: timestamptz("dead_lettered_at"),
    created_at: createdAt(),
    updated_at: timestamptz("updated_at").notNull().defaultNow(),
    finished_at: timestamptz("finished_at"),
  },
  (t) => [
    uniqueIndex("workflow_executions_idempotency_uq").on(t.workflow_id, t.idempotency_key),
    index("workflow_executions_state_idx").on(t.state, t.lease_expires_at),
    ...indexes("workflow_executions", {
      next_retry: t.next_retry_at,
      transaction: t.transaction_id,
      created: t.created_at,
    }),
  ],
);

/** One row per step of an execution, keyed by its call index in the workflow function. */
export const workflowStepRuns = pgTable(
  "workflow_step_runs",
  {
    execution_id: parentId("execution_id", () => workflowExecutions.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    name: text("name").notNull(),
    state: text("state").$type<StepState>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    compensation_attempts: integer("compensation_attempts").notNull().default(0),
    output: jsonb("output").$type<unknown>(),
    compensate_input: jsonb("compensate_input").$type<unknown>(),
    error: jsonb("error").$type<SerializedError>(),
    started_at: timestamptz("started_at"),
    finished_at: timestamptz("finished_at"),
    compensated_at: timestamptz("compensated_at"),
  },
  (t) => [primaryKey({ columns: [t.execution_id, t.index] })],
);

export type ExecutionRow = typeof workflowExecutions.$inferSelect;
export type StepRunRow = typeof workflowStepRuns.$inferSelect;

/** An execution row as the admin API shows it (derived from the columns). */
export const ExecutionRowView = RowView(workflowExecutions);
/** A step run row as the admin API shows it (derived from the columns). */
export const StepRunRowView = RowView(workflowStepRuns);
