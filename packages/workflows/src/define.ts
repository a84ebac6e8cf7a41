import type {
  OutsideStepOptions,
  RetryPolicy,
  Step,
  TransactionalStepOptions,
  Workflow,
  WorkflowContext,
  WorkflowOptions,
} from "./types";

/** Retry policy when a step names none: three attempts, 100 ms doubling, at most 5 s apart. */
export const DEFAULT_RETRY: Required<RetryPolicy> = { attempts: 3, backoffMs: 100, maxBackoffMs: 5_000 };

/**
 * Defines a step: an effect (`invoke`) and how to undo it (`compensate`). A step that reads
 * `ctx.modules` is defined with the `step` of {@link definitions}, which names their type.
 * @example
 * const reserve = step("reserve-stock", {
 *   invoke: async (input: { itemId: string; qty: number }) => ({ output: await reserveQueries.insert(input) }),
 *   compensate: async (reservation) => reserveQueries.remove(reservation.id),
 * });
 */
export function step<I, O, C = O, M = unknown>(
  name: string,
  options: TransactionalStepOptions<I, O, C, M>,
): Step<I, O, C, M>;
export function step<I, O, C = O, M = unknown>(name: string, options: OutsideStepOptions<I, O, C, M>): Step<I, O, C, M>;
export function step<I, O, C = O, M = unknown>(
  name: string,
  options: TransactionalStepOptions<I, O, C, M> | OutsideStepOptions<I, O, C, M>,
): Step<I, O, C, M> {
  if (!name) throw new Error("A step needs a name");
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1)
    throw new Error(`Step ${name}: retry.attempts must be an integer >= 1`);
  return {
    kind: "step",
    name,
    transactional: options.transactional !== false,
    retry,
    timeoutMs: options.timeoutMs,
    secret: {
      input: [...(options.secret?.input ?? [])],
      output: [...(options.secret?.output ?? [])],
      compensateInput: [...(options.secret?.compensateInput ?? [])],
    },
    invoke: options.invoke as Step<I, O, C, M>["invoke"],
    compensate: options.compensate as Step<I, O, C, M>["compensate"],
  };
}

/**
 * Defines a workflow. The function must be deterministic apart from `ctx.run` (no Date.now or
 * random outside a step): a resumed execution re-runs it against its journal.
 * @example
 * export const placeOrder = workflow("place-order", async (input: { cartId: string }, ctx) => {
 *   const cart = await ctx.run(loadCart, input.cartId);
 *   return ctx.run(createOrder, cart);
 * });
 * // Secret input fields are journaled as a redaction (the README's "Secrets"):
 * export const createAccount = workflow("create-account", async (input: { email: string; password_hash: string }, ctx) => { ... }, { secret: { input: ["password_hash"] } });
 */
export function workflow<I, R, M = unknown>(
  name: string,
  fn: (input: I, ctx: WorkflowContext<M>) => Promise<R>,
  options: WorkflowOptions<I, R> = {},
): Workflow<I, R, M> {
  if (!name) throw new Error("A workflow needs a name");
  return {
    kind: "workflow",
    name,
    fn,
    secret: { input: [...(options.secret?.input ?? [])], result: [...(options.secret?.result ?? [])] },
  };
}

/** {@link step} with `ctx.modules` of type `M`. */
export interface StepDefiner<M> {
  <I, O, C = O>(name: string, options: TransactionalStepOptions<I, O, C, M>): Step<I, O, C, M>;
  <I, O, C = O>(name: string, options: OutsideStepOptions<I, O, C, M>): Step<I, O, C, M>;
}

/** {@link workflow} whose steps read `M` (or a part of it) as `ctx.modules`. */
export type WorkflowDefiner<M> = <I, R>(
  name: string,
  fn: (input: I, ctx: WorkflowContext<M>) => Promise<R>,
  options?: WorkflowOptions<I, R>,
) => Workflow<I, R, M>;

/**
 * `step` and `workflow` over module services `M`: a step's `ctx.modules` is an `M`, and a workflow
 * runs the steps whose modules `M` has. The engine knows no module: flows name the process's
 * (`Modules`), a module's own steps the services they read.
 * @example
 * const { step } = definitions<{ inventory: InventoryService }>();
 * export const reserveStep = step("reserve", { invoke: async (input: Lines, ctx) => ({ output: await ctx.modules.inventory.reserve(input) }) });
 */
export function definitions<M>(): { step: StepDefiner<M>; workflow: WorkflowDefiner<M> } {
  return { step, workflow };
}
