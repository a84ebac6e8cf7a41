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
 * Defines a step: an effect (`invoke`) and how to undo it (`compensate`).
 * @example
 * const reserve = step("reserve-stock", {
 *   invoke: async (input: { itemId: string; qty: number }, ctx) => ({ output: await ctx.modules.inventory.reserve(input) }),
 *   compensate: async (reservation, ctx) => ctx.modules.inventory.release(reservation.id),
 * });
 */
export function step<I, O, C = O>(name: string, options: TransactionalStepOptions<I, O, C>): Step<I, O, C>;
export function step<I, O, C = O>(name: string, options: OutsideStepOptions<I, O, C>): Step<I, O, C>;
export function step<I, O, C = O>(
  name: string,
  options: TransactionalStepOptions<I, O, C> | OutsideStepOptions<I, O, C>,
): Step<I, O, C> {
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
    invoke: options.invoke as Step<I, O, C>["invoke"],
    compensate: options.compensate as Step<I, O, C>["compensate"],
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
export function workflow<I, R>(
  name: string,
  fn: (input: I, ctx: WorkflowContext) => Promise<R>,
  options: WorkflowOptions<I, R> = {},
): Workflow<I, R> {
  if (!name) throw new Error("A workflow needs a name");
  return {
    kind: "workflow",
    name,
    fn,
    secret: { input: [...(options.secret?.input ?? [])], result: [...(options.secret?.result ?? [])] },
  };
}
