import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { errors, KasseError } from "@kasse/core";
import { queryRows } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, REDACTED, SecretUnavailableError, step, workflow, type Engine, type EngineLogger } from "../src";

const database = useTestDatabase();

/** Every journal row of the executions of `workflowId`, each column as PostgreSQL prints it (jsonb as JSON text). */
async function journalText(workflowId: string): Promise<string> {
  const rows = await queryRows<{ row: string }>(
    database.db,
    sql`select row_to_json(e)::text as row from workflow_executions e where e.workflow_id = ${workflowId}
        union all select row_to_json(s)::text from workflow_step_runs s join workflow_executions e on e.id = s.execution_id where e.workflow_id = ${workflowId}`,
  );
  return rows.map((r) => r.row).join("\n");
}

/** Every string in the journal of `workflowId`, decoded (so a secret with quotes is found as itself). */
async function journalStrings(workflowId: string): Promise<string[]> {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const line of (await journalText(workflowId)).split("\n").filter(Boolean)) walk(JSON.parse(line));
  return out;
}

/** An engine logger keeping every line, to search it for secrets. */
function capturingLogger(): EngineLogger & { text(): string } {
  const lines: string[] = [];
  // inspect prints an error's stack, own properties and cause chain, as a logger would.
  const keep = (obj: object, msg?: string) => void lines.push(`${inspect(obj, { depth: 8 })} ${msg ?? ""}`);
  return { info: keep, warn: keep, error: keep, text: () => lines.join("\n") };
}

const newEngine = (extra: Partial<Parameters<typeof createEngine>[0]> = {}) =>
  createEngine({ db: database.db, leaseMs: 1_000, ...extra });

/** Stops this "process" mid-execution: its lease is expired and given up, as when a process dies. */
async function expireLease(executionId: string): Promise<void> {
  await database.db.execute(
    sql`update workflow_executions set lease_owner = null, lease_expires_at = now() - interval '1 minute' where id = ${executionId}`,
  );
}

/**
 * A process that dies mid-execution: `halt(ctx)`, called by the workflow, stops the first run there
 * for good (the resumed run passes it); `start(run)` starts the first run, waits for the halt and
 * expires its lease, answering the execution's id for a second process to resume.
 */
function dyingProcess() {
  let executionId = "";
  let dead = false;
  return {
    async halt(ctx: { executionId: string }): Promise<void> {
      if (dead) return;
      executionId = ctx.executionId;
      await new Promise(() => {});
    },
    async start(run: () => Promise<unknown>): Promise<string> {
      void run();
      while (!executionId) await new Promise((resolve) => setTimeout(resolve, 10));
      dead = true;
      await expireLease(executionId);
      return executionId;
    },
  };
}

const HASH = "scrypt$16384$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA";
const TOKEN = "tok_0123456789abcdef0123456789abcdef";

describe("secret fields", () => {
  it("journals a redaction in place of secret input, outputs, compensation inputs and result; the run itself sees the real values", async () => {
    const seen: unknown[] = [];
    const issue = step("issue-token", {
      secret: { input: ["hash"], output: ["token"], compensateInput: ["token"] },
      invoke: async (input: { hash: string }) => {
        seen.push(input.hash);
        return { output: { id: "tok_1", token: TOKEN }, compensateInput: { id: "tok_1", token: TOKEN } };
      },
      compensate: async (input) => void seen.push(`undo ${input.token}`),
    });
    // Returns the token in a field no path names: the journal still must not hold it.
    const echo = step("echo", {
      invoke: async (input: { token: string }) => ({ output: { note: `sent ${input.token}` } }),
    });
    const wf = workflow(
      "secret-success",
      async (input: { email: string; password_hash: string }, ctx) => {
        const issued = await ctx.run(issue, { hash: input.password_hash });
        const echoed = await ctx.run(echo, { token: issued.token });
        return { id: issued.id, token: issued.token, note: echoed.note };
      },
      { secret: { input: ["password_hash"], result: ["token"] } },
    );
    const engine = newEngine();
    const result = await engine.execute(wf, { email: "a@example.com", password_hash: HASH }, { idempotencyKey: "s-1" });
    expect(result).toEqual({ id: "tok_1", token: TOKEN, note: `sent ${TOKEN}` });
    expect(seen).toEqual([HASH]);

    const text = await journalText("secret-success");
    expect(text).not.toContain(HASH);
    expect(text).not.toContain(TOKEN);
    const [execution] = (await engine.list({ workflow_id: ["secret-success"] }, { limit: 1, offset: 0 })).items;
    const detail = await engine.retrieve(execution!.id);
    expect(detail.input).toEqual({ email: "a@example.com", password_hash: REDACTED });
    expect(detail.result).toEqual({ id: "tok_1", token: REDACTED, note: `sent ${REDACTED}` });
    expect(detail.steps.map((s) => [s.name, s.output, s.compensate_input])).toEqual([
      ["issue-token", { id: "tok_1", token: REDACTED }, { id: "tok_1", token: REDACTED }],
      ["echo", { note: `sent ${REDACTED}` }, { note: `sent ${REDACTED}` }],
    ]);
    // A later caller with the same key gets the journaled result: the secret was shown once.
    expect(
      await newEngine().execute(wf, { email: "a@example.com", password_hash: HASH }, { idempotencyKey: "s-1" }),
    ).toEqual({ id: "tok_1", token: REDACTED, note: `sent ${REDACTED}` });
  });

  it("compensates with the real compensation input in the process that ran the step", async () => {
    const undone: string[] = [];
    const issue = step("issue-for-undo", {
      secret: { compensateInput: ["token"] },
      invoke: async () => ({ output: { id: "tok_2" }, compensateInput: { id: "tok_2", token: TOKEN } }),
      compensate: async (input) => void undone.push(input.token),
    });
    const refuse = step("refuse", {
      invoke: async (): Promise<{ output: null }> => {
        throw errors.invalidData("no");
      },
    });
    const wf = workflow("secret-undo", async (_input: { run: string }, ctx) => {
      await ctx.run(issue, null);
      return ctx.run(refuse, null);
    });
    await expect(newEngine().execute(wf, { run: "1" })).rejects.toMatchObject({ type: "invalid_data" });
    expect(undone).toEqual([TOKEN]);
    expect(await journalText("secret-undo")).not.toContain(TOKEN);
  });

  it("keeps secrets out of journaled, logged and thrown errors, keeping their type and retryability", async () => {
    const logger = capturingLogger();
    let attempts = 0;
    // A driver's error quotes the query's parameters (drizzle: "Failed query: ... params: ...").
    const store = step("store-identity", {
      retry: { attempts: 2, backoffMs: 1, maxBackoffMs: 1 },
      invoke: async (input: { provider_metadata: { password: string } }): Promise<{ output: { id: string } }> => {
        attempts++;
        if (attempts === 1)
          throw new Error(
            `Failed query: insert into auth_provider_identity values ($1)\nparams: {"password":"${input.provider_metadata.password}"}`,
          );
        return { output: { id: "authid_1" } };
      },
      compensate: async () => {
        throw new Error(`cannot delete identity holding ${HASH}`);
      },
    });
    const check = step("check", {
      invoke: async (input: { hash: string }): Promise<{ output: null }> => {
        throw errors.conflict(`An identity with password ${input.hash} exists`, {
          details: { hash: input.hash, nested: [input.hash] },
        });
      },
    });
    const wf = workflow(
      "secret-errors",
      async (input: { password_hash: string }, ctx) => {
        await ctx.run(store, { provider_metadata: { password: input.password_hash } });
        return ctx.run(check, { hash: input.password_hash });
      },
      { secret: { input: ["password_hash"] } },
    );
    const error = await newEngine({ logger, compensationRetry: { attempts: 1 } })
      .execute(wf, { password_hash: HASH })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasseError);
    expect(error).toMatchObject({
      type: "conflict",
      retryable: false,
      message: `An identity with password ${REDACTED} exists`,
      details: { hash: REDACTED, nested: [REDACTED] },
    });
    expect(JSON.stringify(error)).not.toContain(HASH);
    expect(String((error as Error).stack)).not.toContain(HASH);
    expect((error as Error).cause).toBeUndefined();
    expect(attempts).toBe(2);
    const text = await journalText("secret-errors");
    expect(text).toContain("compensation_failed");
    expect(text).toContain(`cannot delete identity holding ${REDACTED}`);
    expect(text).not.toContain(HASH);
    expect(logger.text()).toContain("compensation attempt failed");
    expect(logger.text()).not.toContain(HASH);
  });

  it("fails a resumed step that needs a secret the journal did not keep (typed, not retried) and compensates; the redaction never reaches the step", async () => {
    const received: unknown[] = [];
    const undone: string[] = [];
    const first = step("first-effect", {
      invoke: async (input: { email: string }) => ({ output: { id: `first for ${input.email}` } }),
      compensate: async (output) => void undone.push(output.id),
    });
    const store = step("store-hash", {
      retry: { attempts: 3, backoffMs: 1, maxBackoffMs: 1 },
      secret: { input: ["hash"] },
      invoke: async (input: { hash: string }) => {
        received.push(input.hash);
        return { output: null };
      },
    });
    const dying = dyingProcess();
    const wf = workflow(
      "secret-resume",
      async (input: { email: string; password_hash: string }, ctx) => {
        const made = await ctx.run(first, { email: input.email });
        await dying.halt(ctx); // the first process stops here, after step 1 committed
        await ctx.run(store, { hash: input.password_hash });
        return made.id;
      },
      { secret: { input: ["password_hash"] } },
    );
    const executionId = await dying.start(() =>
      newEngine().execute(wf, { email: "r@example.com", password_hash: HASH }),
    );

    const resumer = newEngine({ workflows: [wf] });
    const error = await resumer.resume(executionId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretUnavailableError);
    expect(error).toMatchObject({ type: "unexpected_state", retryable: false });
    expect(received).toEqual([]);
    expect(undone).toEqual(["first for r@example.com"]);
    const detail = await resumer.retrieve(executionId);
    expect(detail.state).toBe("compensated");
    expect(detail.error).toMatchObject({ type: "unexpected_state", retryable: false, name: "SecretUnavailableError" });
    expect(detail.steps.map((s) => [s.name, s.state, s.attempts])).toEqual([
      ["first-effect", "compensated", 1],
      ["store-hash", "failed", 1],
    ]);
    expect(await journalText("secret-resume")).not.toContain(HASH);
  });

  it("a resumed execution whose remaining steps need no secret completes", async () => {
    const dying = dyingProcess();
    const plain = step("plain", { invoke: async (input: { email: string }) => ({ output: `done ${input.email}` }) });
    const hashIt = step("hash-it", {
      secret: { input: ["hash"] },
      invoke: async (input: { hash: string }) => ({ output: { length: input.hash.length } }),
    });
    const wf = workflow(
      "secret-resume-ok",
      async (input: { email: string; password_hash: string }, ctx) => {
        const used = await ctx.run(hashIt, { hash: input.password_hash });
        await dying.halt(ctx);
        return { used, done: await ctx.run(plain, { email: input.email }) };
      },
      { secret: { input: ["password_hash"] } },
    );
    const executionId = await dying.start(() =>
      newEngine().execute(wf, { email: "ok@example.com", password_hash: HASH }),
    );
    expect(await newEngine({ workflows: [wf] }).resume(executionId)).toEqual({
      used: { length: HASH.length },
      done: "done ok@example.com",
    });
  });

  it("refuses to enqueue a workflow with secret input (the worker would get only the redaction)", async () => {
    const wf = workflow("secret-enqueue", async (input: { token: string }) => input.token.length, {
      secret: { input: ["token"] },
    });
    await expect(newEngine().enqueue(wf, { token: TOKEN })).rejects.toThrow(/secret input/);
    expect(await journalText("secret-enqueue")).toBe("");
  });

  it("redacts through arrays, records and whole objects; absent and null fields stay", async () => {
    const wf = workflow(
      "secret-paths",
      async (input: {
        items: Array<{ token: string; name: string }>;
        keys: Record<string, { secret: string }>;
        meta: { a: string; b: number } | null;
        none?: string | null;
      }) => input.items.length,
      {
        secret: { input: ["items.*.token", "keys.*.secret", "meta", "none"] },
      },
    );
    await newEngine().execute(wf, {
      items: [
        { token: "t-one-1", name: "one" },
        { token: "t-two-2", name: "two" },
      ],
      keys: { x: { secret: "k-x-secret" } },
      meta: { a: "a-secret", b: 12345 },
      none: null,
    });
    const [execution] = (await newEngine().list({ workflow_id: ["secret-paths"] }, { limit: 1, offset: 0 })).items;
    expect(execution!.input).toEqual({
      items: [
        { token: REDACTED, name: "one" },
        { token: REDACTED, name: "two" },
      ],
      keys: { x: { secret: REDACTED } },
      meta: REDACTED,
      none: null,
    });
    // @ts-expect-error a path that is not a field of the input is a type error
    workflow("secret-typo", async (input: { password_hash: string }) => input, { secret: { input: ["password"] } });
  });
});

/** How a generated step treats the secret it is given. */
interface SecretPlan {
  /** Returns it in its output: under a declared secret path, or inside text no path names. */
  output: "none" | "declared" | "embedded";
  /** Fails with it in the message (a plain error, as a driver's) or in a typed error's details. */
  fail: "none" | "plain-once" | "typed";
  /** Its compensation fails once with the secret in the message. */
  compensationFails: boolean;
  outside: boolean;
}

const planArb: fc.Arbitrary<SecretPlan> = fc.record({
  output: fc.constantFrom("none" as const, "declared" as const, "embedded" as const),
  fail: fc.oneof(
    { weight: 4, arbitrary: fc.constant("none" as const) },
    { weight: 1, arbitrary: fc.constantFrom("plain-once" as const, "typed" as const) },
  ),
  compensationFails: fc.boolean(),
  outside: fc.boolean(),
});

let generated = 0;

describe("property: no journal row ever holds a secret", () => {
  it("for random workflows passing a secret input through steps that return it, fail with it and compensate with it", async () => {
    const engine: Engine = newEngine({ compensationRetry: { attempts: 1 } });
    await fc.assert(
      fc.asyncProperty(
        fc.array(planArb, { minLength: 1, maxLength: 5 }),
        fc.string({ minLength: 8, maxLength: 40 }).map((s) => `\u00a7${s}`),
        async (plans, secret) => {
          const id = `secret-property-${++generated}`;
          const steps = plans.map((plan, i) => {
            let failed = false;
            let compensationFailed = false;
            const invoke = async (input: { secret: string }) => {
              if (plan.fail === "typed")
                throw errors.invalidData(`step ${i} refuses ${input.secret}`, { details: { secret: input.secret } });
              if (plan.fail === "plain-once" && !failed) {
                failed = true;
                throw new Error(`params: ${JSON.stringify(input)}`);
              }
              const output =
                plan.output === "declared"
                  ? { secret: input.secret }
                  : plan.output === "embedded"
                    ? { note: `<${input.secret}>` }
                    : { note: "none" };
              return { output, compensateInput: { secret: input.secret } };
            };
            const compensate = async () => {
              if (plan.compensationFails && !compensationFailed) {
                compensationFailed = true;
                throw new Error(`undo failed for ${secret}`);
              }
            };
            const options = {
              retry: { attempts: 2, backoffMs: 1, maxBackoffMs: 1 },
              secret: {
                input: ["secret" as const],
                output: plan.output === "declared" ? ["secret" as const] : [],
                compensateInput: ["secret" as const],
              },
            };
            return plan.outside
              ? step(`p${i}`, { ...options, transactional: false, invoke, compensate })
              : step(`p${i}`, { ...options, invoke, compensate });
          });
          const wf = workflow(
            id,
            async (input: { secret: string }, ctx) => {
              const outputs: unknown[] = [];
              for (const s of steps) outputs.push(await ctx.run(s, { secret: input.secret }));
              return outputs;
            },
            { secret: { input: ["secret"] } },
          );
          await engine.execute(wf, { secret }).catch((error: unknown) => {
            expect(JSON.stringify(error)).not.toContain(secret);
            expect(String((error as Error).message)).not.toContain(secret);
          });
          const strings = await journalStrings(id);
          expect(strings.length).toBeGreaterThan(0);
          expect(strings.filter((s) => s.includes(secret))).toEqual([]);
        },
      ),
      { numRuns: 40, seed: 20240614 },
    );
  });
});
