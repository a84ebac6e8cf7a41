import { Type } from "@sinclair/typebox";
import { Extend, Id, normalizeRange, toDate } from "@kasse/db";
import {
  ExecutionRowView,
  StepRunRowView,
  type ExecutionDetail,
  type ExecutionRow,
  type StepRunRow,
} from "@kasse/workflows";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ListAnswer, ListQueryOf, listResponse, RangeQuery, RetrieveQuery } from "../../http/schemas";

const Params = Type.Object({ id: Id({ minLength: 1 }) });
const State = Type.Union(
  ["running", "succeeded", "failed", "compensating", "compensated", "compensation_failed"].map((s) => Type.Literal(s)),
);
const ListExecutions = ListQueryOf(
  { workflow_id: Id(), state: State, transaction_id: Id() },
  { created_at: Type.Optional(RangeQuery()) },
);
const NoBody = Type.Object({}, { additionalProperties: false });
/** A bodiless POST validates as `{}`; any field sent is rejected by the strict schema. */
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

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

const presentDetail = (detail: ExecutionDetail) => ({ ...present(detail), steps: detail.steps.map(presentStep) });

/** An execution as {@link present} shows it; with its steps ({@link presentStep}) when read alone. */
const ExecutionView = Extend(ExecutionRowView, { steps: Type.Array(StepRunRowView) });
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
        const { items, count } = await engine.list(
          { ...filters, state: filters.state as ExecutionRow["state"][] | undefined, created_at: range },
          { limit, offset, order },
        );
        return listResponse("workflow_executions", project(items.map(present), parseFields(fields)), count, {
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

    app.post(
      `${base}/:id/retry`,
      { schema: { params: Params, body: NoBody, response: One }, preValidation: emptyBody },
      async (request) => {
        await engine.retry(request.params.id);
        return { workflow_execution: presentDetail(await engine.retrieve(request.params.id)) };
      },
    );
  }
}
