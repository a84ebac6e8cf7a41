import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { generateId } from "@kasse/core";
import { queryRows } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, REDACTED, SecretUnavailableError, type AnyWorkflow, type Engine } from "@kasse/workflows";
import { hashPassword } from "@kasse/modules/auth";
import { createCustomerService } from "@kasse/modules/customer";
import { createUserService } from "@kasse/modules/user";
import { allWorkflows } from "./index";
import { createUserAccountWorkflow } from "./create-user-account";
import { registerCustomerWorkflow } from "./register-customer";
import { requestOrderTransfer } from "./transfer-order";
import { changeCustomerEmailWorkflow } from "./customer-email";
import { createModules } from "@kasse/modules";
import { createOrderService } from "@kasse/modules/order";
import { orderSnapshot } from "@kasse/modules/order/testing";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase();
let engine: Engine;
beforeAll(async () => {
  engine = createEngine({
    events: eventOutbox,
    db: database.db,
    workflows: allWorkflows,
    modules: () => createModules(),
  });
});

/** Every string of every journal row of `workflowId` (executions and step runs, decoded from JSON). */
async function journalStrings(workflowId: string): Promise<string[]> {
  const rows = await queryRows<{ row: unknown }>(
    database.db,
    sql`select row_to_json(e) as row from workflow_executions e where e.workflow_id = ${workflowId}
        union all select row_to_json(s) from workflow_step_runs s join workflow_executions e on e.id = s.execution_id where e.workflow_id = ${workflowId}`,
  );
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  rows.forEach((r) => walk(typeof r.row === "string" ? JSON.parse(r.row) : r.row));
  return out;
}

/**
 * The state a process leaves when it dies before the workflow's first step committed: the
 * execution row with its journaled (redacted) input, running, its lease expired.
 */
async function crashedExecution(workflowId: string, input: unknown): Promise<string> {
  const id = generateId("wfx");
  await database.db.execute(
    sql`insert into workflow_executions (id, workflow_id, transaction_id, state, input, attempt, lease_owner, lease_expires_at) values (${id}, ${workflowId}, ${id}, 'running', ${JSON.stringify(input)}::jsonb, 1, 'dead-process', now() - interval '1 minute')`,
  );
  return id;
}

const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(database.db, query))[0]!.n;

/** Crashes an execution of `workflowId` whose journal holds `input` (secrets redacted) and resumes it: it must fail cleanly, and `created` count nothing. */
async function resumedWithoutSecret(
  workflowId: string,
  input: unknown,
  created: ReturnType<typeof sql>,
): Promise<string> {
  const id = await crashedExecution(workflowId, input);
  await expect(engine.resume(id)).rejects.toBeInstanceOf(SecretUnavailableError);
  expect(await count(created)).toBe(0);
  return id;
}
const scrypt = (password: string) => hashPassword(password, { logN: 4, r: 8, p: 1 });

/**
 * Every registered workflow that carries a secret (password, password hash, reset or invite
 * token, API key secret), with a scenario running it through success, failure and a resume after
 * a crash; it returns the secrets the journal must never hold.
 */
const carriesSecrets: Record<string, () => Promise<string[]>> = {
  "create-user-account": async () => {
    const hash = await scrypt("user-plain-pass");
    const ok = await engine.execute(createUserAccountWorkflow, {
      email: "journal-user@example.com",
      first_name: null,
      last_name: null,
      password_hash: hash,
    });
    expect(ok.user_id).toMatch(/^user_/);
    // The user step conflicts after the identity step stored the hash: compensated.
    await createUserService().create({ email: "journal-taken@example.com" });
    const takenHash = await scrypt("taken-plain-pass");
    await expect(
      engine.execute(createUserAccountWorkflow, {
        email: "journal-taken@example.com",
        first_name: null,
        last_name: null,
        password_hash: takenHash,
      }),
    ).rejects.toMatchObject({ type: "conflict" });
    // Resumed without the hash: fails cleanly, creates nothing (never an identity whose "hash" is the placeholder).
    const id = await resumedWithoutSecret(
      "create-user-account",
      { email: "journal-crash@example.com", first_name: null, last_name: null, password_hash: REDACTED },
      sql`select count(*)::int as n from provider_identity where entity_id = 'journal-crash@example.com'`,
    );
    expect((await engine.retrieve(id)).state).toBe("failed");
    return ["user-plain-pass", hash, "taken-plain-pass", takenHash];
  },
  "register-customer": async () => {
    const hash = await scrypt("customer-plain-pass");
    await engine.execute(registerCustomerWorkflow, {
      customer: { email: "journal-customer@example.com" },
      auth_identity_id: null,
      password_hash: hash,
    });
    await createCustomerService().create({ email: "journal-registered@example.com" }, { has_account: true });
    const takenHash = await scrypt("registered-plain-pass");
    await expect(
      engine.execute(registerCustomerWorkflow, {
        customer: { email: "journal-registered@example.com" },
        auth_identity_id: null,
        password_hash: takenHash,
      }),
    ).rejects.toMatchObject({ type: "conflict" });
    await resumedWithoutSecret(
      "register-customer",
      { customer: { email: "journal-crash-customer@example.com" }, auth_identity_id: null, password_hash: REDACTED },
      sql`select count(*)::int as n from customer where email = 'journal-crash-customer@example.com'`,
    );
    return ["customer-plain-pass", hash, "registered-plain-pass", takenHash];
  },
  "change-customer-email": async () => {
    const auth = createModules().auth;
    const mover = await engine.execute(registerCustomerWorkflow, {
      customer: { email: "journal-mover@example.com" },
      auth_identity_id: null,
      password_hash: await scrypt("mover-plain-pass"),
    });
    const changeTo = async (email: string) =>
      (await auth.requestEmailChange({ ...mover, email, ttlMs: 60_000 })).secret;
    const token = await changeTo("journal-moved@example.com");
    expect(await engine.execute(changeCustomerEmailWorkflow, { ...mover, token })).toMatchObject({
      email: "journal-moved@example.com",
    });
    // Another identity's use of a token fails (it is not theirs) and the token stays unused.
    const other = await changeTo("journal-other@example.com");
    await expect(
      engine.execute(changeCustomerEmailWorkflow, { ...mover, auth_identity_id: "authid_someone_else", token: other }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    await resumedWithoutSecret(
      "change-customer-email",
      { ...mover, token: REDACTED },
      sql`select count(*)::int as n from auth_one_time_token where kind = 'email_change' and used_at is not null and entity_id = 'journal-other@example.com'`,
    );
    return [token, other];
  },
  "request-order-transfer": async () => {
    // The transfer token travels from the order step to the outbox step: redacted in the journal.
    const mails: string[] = [];
    const options = {
      secret: "journal-secrets-test-secret",
      notificationProviders: [
        { id: "capture", channels: ["email"], send: async (m: { text: string }) => (mails.push(m.text), {}) },
      ],
    };
    const notifications = createModules(options).notification;
    const transferEngine = createEngine({
      events: eventOutbox,
      db: database.db,
      workflows: allWorkflows,
      modules: () => createModules(options),
    });
    const order = await createOrderService().create(orderSnapshot({ email: "journal-guest@example.com" }));
    const customer = await createCustomerService().create(
      { email: "journal-claimer@example.com" },
      { has_account: true },
    );
    const result = await requestOrderTransfer(transferEngine, notifications, {
      order_id: order.id,
      customer_id: customer.id,
      storefront_url: null,
    });
    const token = /\/transfer\/([^\s/]+)/.exec(mails.join("\n"))?.[1];
    expect(token, "the email carries the token").toBeTruthy();
    expect(result.order_id).toBe(order.id);
    return [token!];
  },
};

/** Registered workflows whose inputs, outputs and results are ids, quantities and amounts: nothing secret. */
const noSecrets = [
  "remove-user-account",
  "remove-customer-account",
  "accept-invite",
  "cancel-order",
  "capture-payment",
  "refund-payment",
  "create-fulfillment",
  "cancel-fulfillment",
  "create-shipment",
  "mark-delivered",
  "create-return",
  "receive-return",
  "cancel-return",
  "complete-cart",
  "create-payment-session",
  "authorize-payment-session",
  "pay-order-payment-collection",
  "update-store",
  "create-products",
  "update-products",
  "write-product-variants",
  "delete-products",
  "batch-products",
  "create-region",
  "update-region",
  "delete-stock-location",
  // Its input is the message id: the token stays sealed in the outbox row (send-notification.test.ts).
  "send-notification",
  // Subscribers' messages (order confirmation, shipment, cancellation, refund) carry no token.
  "queue-event-notification",
  // Its input is the event's provider and id; the recorded event holds the action, the session and
  // the provider's payment ids and the amount, never the signed body.
  "process-payment-webhook",
  // The edit's id and its plan: order lines, quantities, prices and amounts, no customer data beyond the order's.
  "confirm-order-edit",
  // An exchange's or claim's id, its plan and the amounts it settles.
  "confirm-claim-exchange",
  // A confirmed exchange's or claim's id, the change taking it back and the collection it removes.
  "cancel-claim-exchange",
  // A draft's id, its lines to reserve and its total.
  "convert-draft-order",
  // An order's and a collection's ids and amounts (a manual payment holds no card data).
  "create-order-difference-collection",
  "mark-payment-collection-as-paid",
  "delete-order-payment-collection",
];

describe("secrets in the journal of the registered workflows", () => {
  it("every registered workflow is classified: it carries secrets (and has a scenario below) or none", () => {
    const names = allWorkflows.map((wf: AnyWorkflow) => wf.name).sort();
    expect([...Object.keys(carriesSecrets), ...noSecrets].sort()).toEqual(names);
    // A workflow with secret input is one of those carrying secrets.
    for (const wf of allWorkflows)
      if (wf.secret.input.length > 0 || wf.secret.result.length > 0)
        expect(Object.keys(carriesSecrets)).toContain(wf.name);
  });

  for (const [name, scenario] of Object.entries(carriesSecrets)) {
    it(`${name}: no journal row holds its secrets after success, failure and a resume without them`, async () => {
      const secrets = await scenario();
      const strings = await journalStrings(name);
      expect(strings).toContain(REDACTED);
      for (const secret of secrets)
        expect(
          strings.filter((s) => s.includes(secret)),
          secret,
        ).toEqual([]);
    });
  }
});
