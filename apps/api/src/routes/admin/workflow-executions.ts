import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import { Extend, normalizeRange, toDate } from "@kasse/db";
import {
  ExecutionRowView,
  StepRunRowView,
  type ExecutionDetail,
  type ExecutionRow,
  type ExecutionState,
  type StepRunRow,
  type StepState,
  type StepSummary,
} from "@kasse/workflows";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { Answer, ListAnswer, ListQueryOf, listResponse, RangeQuery, RetrieveQuery, NoFields } from "../../http/schemas";

const Params = Type.Object({ id: Id({ minLength: 1 }) });
/**
 * Medusa's execution states, as its dashboard's filter sends them (accepted alternatives): the
 * Kasse states each covers. `failed` and `compensating` are Kasse's own too and keep their meaning.
 */
const MEDUSA_FILTER_STATES: Record<string, ExecutionState[]> = {
  not_started: [],
  invoking: ["running"],
  waiting_to_compensate: [],
  done: ["succeeded"],
  reverted: ["compensated"],
};
const KASSE_STATES = ["running", "succeeded", "failed", "compensating", "compensated", "compensation_failed"] as const;
const State = Type.Union([...KASSE_STATES, ...Object.keys(MEDUSA_FILTER_STATES)].map((s) => Type.Literal(s)));
const kasseStates = (states: string[]): ExecutionState[] => [
  ...new Set(states.flatMap((s) => MEDUSA_FILTER_STATES[s] ?? [s as ExecutionState])),
];
const ListExecutions = ListQueryOf(
  { workflow_id: Id(), state: State, transaction_id: Id() },
  { created_at: Type.Optional(RangeQuery()) },
);

/** An execution as the admin API shows it (the lease and journal fields included). */
const present = (row: ExecutionRow) => ({
  id: row.id,
  workflow_id: row.workflow_id,
  transaction_id: row.transaction_id,
  idempotency_key: row.idempotency_key,
  state: row.state,
  input: row.input,
  result: row.result,
  error: row.error,
  attempt: row.attempt,
  lease_owner: row.lease_owner,
  lease_expires_at: row.lease_expires_at,
  next_retry_at: row.next_retry_at,
  dead_lettered_at: row.dead_lettered_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
  finished_at: row.finished_at,
});

const presentStep = (step: StepRunRow) => ({
  index: step.index,
  name: step.name,
  state: step.state,
  attempts: step.attempts,
  compensation_attempts: step.compensation_attempts,
  output: step.output,
  error: step.error,
  started_at: step.started_at,
  finished_at: step.finished_at,
  compensated_at: step.compensated_at,
});

/*
 * Medusa's presentation of an execution (what its admin dashboard reads): `execution.steps`, a map
 * keyed by step id whose `invoke` and `compensate` phases each have a `{state, status}` in Medusa's
 * vocabulary, and `context` with the steps' outputs and errors. Derived from the journal; the
 * contract's own fields (`state`, `steps`) stay as they are.
 */
const MEDUSA_EXECUTION_STATE: Record<ExecutionState, string> = {
  running: "invoking",
  succeeded: "done",
  failed: "failed",
  compensating: "compensating",
  compensated: "reverted",
  compensation_failed: "failed",
};
const idle = { state: "not_started", status: "idle" };
const MEDUSA_STEP_PHASES: Record<StepState, { invoke: typeof idle; compensate: typeof idle }> = {
  running: { invoke: { state: "invoking", status: "idle" }, compensate: idle },
  succeeded: { invoke: { state: "done", status: "ok" }, compensate: idle },
  failed: { invoke: { state: "failed", status: "permanent_failure" }, compensate: idle },
  compensated: { invoke: { state: "done", status: "ok" }, compensate: { state: "reverted", status: "ok" } },
  compensation_failed: {
    invoke: { state: "done", status: "ok" },
    compensate: { state: "failed", status: "permanent_failure" },
  },
};

/** Each step's key: its name, and its call index after it when the name repeats (a step run twice). */
const stepKeys = (steps: ReadonlyArray<{ index: number; name: string }>): string[] => {
  const seen = new Map<string, number>();
  for (const s of steps) seen.set(s.name, (seen.get(s.name) ?? 0) + 1);
  return steps.map((s) => (seen.get(s.name)! > 1 ? `${s.name}-${s.index}` : s.name));
};

const medusaExecution = (state: ExecutionState, steps: ReadonlyArray<StepSummary>) => {
  const keys = stepKeys(steps);
  return {
    state: MEDUSA_EXECUTION_STATE[state],
    steps: Object.fromEntries(
      steps.map((s, i) => {
        const id = `_root.${keys[i]!}`;
        const phases = MEDUSA_STEP_PHASES[s.state];
        return [id, { id, ...phases, definition: {}, depth: 1, startedAt: s.started_at?.getTime() ?? null }];
      }),
    ),
  };
};

const medusaContext = (detail: ExecutionDetail) => {
  const keys = stepKeys(detail.steps);
  const errors: Array<{ action: string; handlerType: string; error: unknown }> = [];
  detail.steps.forEach((s, i) => {
    if (s.error !== null)
      errors.push({
        action: keys[i]!,
        handlerType: s.state === "compensation_failed" ? "compensate" : "invoke",
        error: s.error,
      });
  });
  return {
    data: {
      payload: detail.input,
      invoke: Object.fromEntries(
        detail.steps.map((s, i) => [keys[i]!, { output: { output: s.output, compensateInput: s.compensate_input } }]),
      ),
    },
    errors,
  };
};

const presentDetail = (detail: ExecutionDetail) => ({
  ...present(detail),
  steps: detail.steps.map(presentStep),
  execution: medusaExecution(detail.state, detail.steps),
  context: medusaContext(detail),
});

const Phase = Type.Object({ state: Type.String(), status: Type.String() });
const MedusaExecution = Type.Object(
  {
    state: Type.String({ description: "The execution's state in Medusa's vocabulary" }),
    steps: Type.Record(
      Type.String(),
      Type.Object(
        {
          id: Type.String(),
          invoke: Phase,
          compensate: Phase,
          definition: Type.Object({}, { additionalProperties: true }),
          depth: Type.Integer(),
          startedAt: Type.Union([Type.Number(), Type.Null()]),
        },
        { additionalProperties: true },
      ),
    ),
  },
  {
    additionalProperties: true,
    description: "Medusa's presentation of the execution's steps (its dashboard reads it)",
  },
);
const MedusaContext = Type.Object(
  {
    data: Type.Object(
      { payload: Type.Unknown(), invoke: Type.Record(Type.String(), Type.Unknown()) },
      { additionalProperties: true },
    ),
    errors: Type.Array(Type.Unknown()),
  },
  { additionalProperties: true, description: "Medusa's presentation of the steps' outputs and errors" },
);

/**
 * An execution as {@link present} shows it, with Medusa's `execution`; read alone, with its steps
 * ({@link presentStep}) and Medusa's `context`.
 */
const ExecutionView = Extend(ExecutionRowView, {
  steps: Type.Array(StepRunRowView),
  execution: MedusaExecution,
  context: MedusaContext,
});
const One = Answer("workflow_execution", ExecutionView);

/** Admin workflow executions: the journal, and re-queueing failed or stuck ones (docs/CONTRACT.md). */
export default async function workflowExecutions(app: App): Promise<void> {
  const engine = app.infra.engine;

  // docs/CONTRACT.md's path, and Medusa's (`workflows-executions`) that @medusajs/js-sdk calls.
  for (const base of ["/workflow-executions", "/workflows-executions"]) {
    app.get(
      base,
      { schema: { querystring: ListExecutions, response: ListAnswer("workflow_executions", ExecutionView) } },
      async (request) => {
        const { limit, offset, order, fields, created_at, ...filters } = request.query;
        const range = created_at === undefined ? undefined : normalizeRange(created_at, toDate);
        const state = filters.state && kasseStates(filters.state);
        // Only Medusa states no execution of Kasse's is ever in (`not_started`, `waiting_to_compensate`).
        if (state?.length === 0) return listResponse("workflow_executions", [], 0, { limit, offset });
        const { items, count } = await engine.list({ ...filters, state, created_at: range }, { limit, offset, order });
        const steps = new Map<string, StepSummary[]>();
        for (const s of await engine.stepSummaries(items.map((e) => e.id)))
          steps.set(s.execution_id, [...(steps.get(s.execution_id) ?? []), s]);
        const shown = items.map((e) => ({ ...present(e), execution: medusaExecution(e.state, steps.get(e.id) ?? []) }));
        return listResponse("workflow_executions", project(shown, parseFields(fields)), count, {
          limit,
          offset,
        });
      },
    );

    app.get(
      `${base}/:id`,
      { schema: { params: Params, querystring: RetrieveQuery, response: One } },
      async (request) => {
        return {
          workflow_execution: project(
            presentDetail(await engine.retrieve(request.params.id)),
            parseFields(request.query.fields),
          ),
        };
      },
    );

    app.post(`${base}/:id/retry`, { schema: { params: Params, body: NoFields, response: One } }, async (request) => {
      await engine.retry(request.params.id);
      return { workflow_execution: presentDetail(await engine.retrieve(request.params.id)) };
    });
  }
}
