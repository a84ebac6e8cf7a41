import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import { queryRows } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { authenticatorCode } from "@kasse/modules/auth/testing";
import { startTestSmtpServer, waitForMail, type TestSmtpServer } from "@kasse/modules/notification/testing";
import { captureLogs, createTestApp, type TestApp } from "../src/testing";

// Runs every flow that handles a password, a password hash or a token, capturing every log line
// (trace), then searches every column of every table (the workflow journal, the outbox and the
// idempotency store included) and the logs: each secret may be only in its own hashed column.

const logs = captureLogs();
let t: TestApp;
let smtp: TestSmtpServer;

/** A secret the run produced, and the only `table.column`s allowed to hold it as it is. */
interface Secret {
  label: string;
  value: string;
  allowedIn: string[];
}
const secrets: Secret[] = [];
const remember = (label: string, value: string, allowedIn: string[] = []): string => {
  expect(value, label).toBeTruthy();
  secrets.push({ label, value, allowedIn });
  return value;
};
/** A stored secret that a later flow replaced (a password hash after a reset): from then on it may be nowhere. */
const replaced = (value: string) => secrets.filter((s) => s.value === value).forEach((s) => (s.allowedIn = []));
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

let requests = 0;
const inject = (method: "GET" | "POST", url: string, payload?: object, headers: Record<string, string> = {}) => {
  requests++;
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
};
const send = async (method: "GET" | "POST", url: string, payload?: object, headers: Record<string, string> = {}) => {
  const res = await inject(method, url, payload, headers);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let logins = 0;
// With an Idempotency-Key, so the stored (encrypted) answer holding the JWT is searched too.
const login = async (actor: string, email: string, password: string) =>
  remember(
    `${actor} JWT #${++logins} of ${email}`,
    (
      await send("POST", `/auth/${actor}/emailpass`, { email, password }, { "idempotency-key": `login-${logins}` })
    ).json().token,
  );
const storedHash = async (email: string) => {
  const [row] = await queryRows<{ hash: string }>(
    t.database.db,
    sql`select provider_metadata->>'password' as hash from provider_identity where entity_id = ${email}`,
  );
  return row!.hash;
};
const inviteTokenIn = (raw: string) => /Your invite token: ([\w.-]+)/.exec(raw.replace(/=\r?\n/g, ""))?.[1] ?? "";
const resetTokenIn = (raw: string) => /Your reset token: ([A-Za-z0-9_-]+)/.exec(raw)?.[1] ?? "";
const confirmationTokenIn = (raw: string) => /Your confirmation token: ([A-Za-z0-9_-]+)/.exec(raw)?.[1] ?? "";

const HASHED = "provider_identity.provider_metadata";

/**
 * The flows, one block each, in order. Each remembers the secrets it produced. A new flow that
 * handles a secret (Medusa's admin invites: create an invite, accept it with its token) is one
 * more block here.
 */
const flows: Array<[string, () => Promise<void>]> = [
  [
    "register with a password (POST /store/customers)",
    async () => {
      const password = remember("customer password (one-call form)", "one-call-Pa55word!");
      await send("POST", "/store/customers", { email: "onecall@example.com", password, first_name: "Ana" });
      remember("customer hash (one-call form)", await storedHash("onecall@example.com"), [HASHED]);
      await login("customer", "onecall@example.com", password);
    },
  ],
  [
    "register with a registration token (/auth/customer/emailpass/register)",
    async () => {
      const password = remember("customer password (token form)", "token-form-Pa55word!");
      const registration = remember(
        "registration JWT",
        (await send("POST", "/auth/customer/emailpass/register", { email: "tokenform@example.com", password })).json()
          .token,
      );
      await send(
        "POST",
        "/store/customers",
        { email: "tokenform@example.com", last_name: "Lopez" },
        bearer(registration),
      );
      remember("customer hash (token form)", await storedHash("tokenform@example.com"), [HASHED]);
      await login("customer", "tokenform@example.com", password);
    },
  ],
  [
    "create an admin user and sign in",
    async () => {
      const password = remember("admin password", "admin-Pa55word!");
      await createUserAccount(t.app.infra.engine, { email: "admin@example.com", password }, { scryptLogN: 4 });
      remember("admin hash", await storedHash("admin@example.com"), [HASHED]);
      await login("user", "admin@example.com", password);
    },
  ],
  [
    "reset a customer's password (token in the body)",
    async () => {
      const before = await storedHash("onecall@example.com");
      await send("POST", "/auth/customer/emailpass/reset-password", { email: "onecall@example.com" });
      const token = remember(
        "customer reset token",
        resetTokenIn((await waitForMail(smtp, "onecall@example.com")).raw),
      );
      remember("customer reset token hash", sha256(token), ["auth_one_time_token.token_hash"]);
      // A storefront link carries it in a query string: answered 400, logged without the query.
      expect((await inject("GET", `/store/products?token=${token}`)).statusCode).toBe(400);
      const password = remember("customer password after reset", "after-reset-Pa55word!");
      await send("POST", "/auth/customer/emailpass/update", { email: "onecall@example.com", token, password });
      replaced(before);
      remember("customer hash after reset", await storedHash("onecall@example.com"), [HASHED]);
      await login("customer", "onecall@example.com", password);
    },
  ],
  [
    "change a customer's email (token mailed to the new address, confirmed by the signed-in customer)",
    async () => {
      const customer = bearer(await login("customer", "tokenform@example.com", "token-form-Pa55word!"));
      await send("POST", "/store/customers/me/email", { email: "moved@example.com" }, customer);
      const token = remember(
        "email change token",
        confirmationTokenIn((await waitForMail(smtp, "moved@example.com")).raw),
      );
      remember("email change token hash", sha256(token), ["auth_one_time_token.token_hash"]);
      await send("POST", "/store/customers/me/email/confirm", { token }, customer);
      await login("customer", "moved@example.com", "token-form-Pa55word!");
    },
  ],
  [
    "reset an admin's password (token as Bearer, as Medusa's SDK sends it)",
    async () => {
      const before = await storedHash("admin@example.com");
      await send("POST", "/auth/user/emailpass/reset-password", { identifier: "admin@example.com" });
      const token = remember("admin reset token", resetTokenIn((await waitForMail(smtp, "admin@example.com")).raw));
      remember("admin reset token hash", sha256(token), ["auth_one_time_token.token_hash"]);
      const password = remember("admin password after reset", "admin-after-Pa55word!");
      await send("POST", "/auth/user/emailpass/update", { email: "admin@example.com", password }, bearer(token));
      replaced(before);
      remember("admin hash after reset", await storedHash("admin@example.com"), [HASHED]);
      await login("user", "admin@example.com", password);
    },
  ],
  [
    "create a secret API key and use it in the header, as Basic and in the query",
    async () => {
      const admin = bearer(await login("user", "admin@example.com", "admin-after-Pa55word!"));
      const created = await send(
        "POST",
        "/admin/api-keys",
        { title: "CI", type: "secret" },
        { ...admin, "idempotency-key": "create-ci-key" },
      );
      const token = remember("secret API key", created.json().api_key.token);
      remember("secret API key hash", sha256(token), ["api_key.token_hash"]);
      await send("GET", "/admin/api-keys", undefined, { "x-service-access-token": token });
      await send("GET", "/admin/api-keys", undefined, {
        authorization: `Basic ${Buffer.from(`${token}:`).toString("base64")}`,
      });
      await send("GET", `/admin/api-keys?api_token=${token}`);
    },
  ],
  [
    "create a webhook endpoint and rotate its signing secret (sealed at rest: it must be read back to sign)",
    async () => {
      const admin = bearer(await login("user", "admin@example.com", "admin-after-Pa55word!"));
      const created = (
        await send(
          "POST",
          "/admin/webhooks",
          { url: "https://hooks.example.com/kasse", events: ["*"] },
          { ...admin, "idempotency-key": "create-webhook" },
        )
      ).json().webhook as { id: string; secret: string };
      remember("webhook signing secret", created.secret);
      remember("webhook signing key (base64)", created.secret.slice("whsec_".length));
      const rotated = (await send("POST", `/admin/webhooks/${created.id}/rotate-secret`, {}, admin)).json().webhook as {
        secret: string;
      };
      remember("rotated webhook signing secret", rotated.secret);
      remember("rotated webhook signing key (base64)", rotated.secret.slice("whsec_".length));
    },
  ],
  [
    "invite an admin, register with the invited email and accept with the token in the query",
    async () => {
      const admin = bearer(await login("user", "admin@example.com", "admin-after-Pa55word!"));
      const created = (await send("POST", "/admin/invites", { email: "invited@example.com" }, admin)).json().invite as {
        token: string;
      };
      const token = remember("invite token", created.token);
      const secret = remember("invite token secret (jti)", decodeJwt(token).jti ?? "");
      remember("invite token secret hash", sha256(secret), ["invite.token_hash"]);
      expect(inviteTokenIn((await waitForMail(smtp, "invited@example.com")).raw)).toBe(token);
      const password = remember("invited admin password", "invited-Pa55word!");
      const registration = remember(
        "invited registration JWT",
        (await send("POST", "/auth/user/emailpass/register", { email: "invited@example.com", password })).json().token,
      );
      await send(
        "POST",
        `/admin/invites/accept?token=${encodeURIComponent(token)}`,
        { first_name: "In", last_name: "Vited" },
        bearer(registration),
      );
      remember("invited admin hash", await storedHash("invited@example.com"), [HASHED]);
      await login("user", "invited@example.com", password);
    },
  ],
  [
    "set up an authenticator app (MFA), then sign in with its code and with a recovery code",
    async () => {
      const password = remember("MFA admin password", "mfa-Pa55word!");
      await createUserAccount(t.app.infra.engine, { email: "mfa@example.com", password }, { scryptLogN: 4 });
      remember("MFA admin hash", await storedHash("mfa@example.com"), [HASHED]);
      const admin = bearer(await login("user", "mfa@example.com", password));
      const setup = (await send("POST", "/auth/mfa/factors", { provider: "totp" }, admin)).json();
      // Sealed at rest (it must be read back to check codes): the base32 the app was given is nowhere.
      const secret = remember("TOTP secret", setup.secret);
      remember("TOTP otpauth:// URI", setup.otpauth_url);
      await send(
        "POST",
        `/auth/mfa/factors/${setup.mfa_factor.id}/verify`,
        { code: authenticatorCode(secret, -1) },
        admin,
      );
      const codes: string[] = (await send("POST", "/auth/mfa/recovery-codes", {}, admin)).json().recovery_codes;
      codes.forEach((code, i) => {
        remember(`recovery code #${i + 1}`, code);
        remember(`recovery code #${i + 1} hash`, sha256(code.replace("-", "")), ["auth_mfa_recovery_code.code_hash"]);
      });
      const signIn = async () => {
        const answer = (await send("POST", "/auth/user/emailpass", { email: "mfa@example.com", password })).json();
        remember(`MFA-pending JWT #${++logins}`, answer.token);
        return answer.mfa_challenge.id as string;
      };
      const withCode = { method: "totp", code: authenticatorCode(secret) };
      const withRecovery = { method: "recovery_code", code: codes[0] };
      for (const body of [withCode, withRecovery])
        remember(
          `MFA session JWT #${logins}`,
          (await send("POST", `/auth/mfa/challenges/${await signIn()}/verify`, body)).json().token,
        );
    },
  ],
];

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url }, { logger: logs.logger });
  for (const [, run] of flows) await run();
  // Delivery and the journal settle after some answers.
  await t.app.infra.engine.drain(5_000);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Every cell of every table of the database (every schema but the system ones), as text, with its `table.column`. */
async function allCells(): Promise<Array<{ column: string; text: string }>> {
  const columns = await queryRows<{ table_schema: string; table_name: string; column_name: string }>(
    t.database.db,
    sql`select c.table_schema, c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema') order by 1, 2, 3`,
  );
  const tables = new Map<string, typeof columns>();
  for (const c of columns)
    tables.set(`${c.table_schema}.${c.table_name}`, [...(tables.get(`${c.table_schema}.${c.table_name}`) ?? []), c]);
  expect(tables.size).toBeGreaterThan(40);
  const cells: Array<{ column: string; text: string }> = [];
  for (const [, [first, ...rest]] of tables) {
    const { table_schema: schema, table_name: table } = first!;
    const rows = await queryRows<{ row: string }>(
      t.database.db,
      sql`select row_to_json(r)::text as row from ${sql.identifier(schema)}.${sql.identifier(table)} r`,
    );
    for (const { row } of rows) {
      const record = JSON.parse(row) as Record<string, unknown>;
      for (const { column_name: column } of [first!, ...rest]) {
        const cell = record[column];
        cells.push({
          column: `${schema === "public" ? "" : `${schema}.`}${table}.${column}`,
          text: typeof cell === "string" ? cell : JSON.stringify(cell ?? null),
        });
      }
    }
  }
  return cells;
}

describe("secrets at rest and in the logs", () => {
  it("ran every flow, journaled its workflows, and logged every request", async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    const workflows = await queryRows<{ workflow_id: string }>(
      t.database.db,
      sql`select distinct workflow_id from workflow_executions order by 1`,
    );
    expect(workflows.map((w) => w.workflow_id)).toEqual(
      expect.arrayContaining([
        "create-user-account",
        "register-customer",
        "change-customer-email",
        "send-notification",
      ]),
    );
    expect(logs.lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(requests);
    expect(logs.text()).toContain('"url":"/store/products"');
    expect(logs.text()).toContain('"url":"/admin/api-keys"');
  });

  it("the database holds each secret only in its own hashed column: passwords and tokens nowhere, a hash only in its identity", async () => {
    const cells = await allCells();
    expect(cells.some((c) => c.column === "workflow_executions.input")).toBe(true);
    const placed: Record<string, string[]> = {};
    for (const secret of secrets)
      placed[secret.label] = [
        ...new Set(cells.filter((c) => c.text.includes(secret.value)).map((c) => c.column)),
      ].sort();
    expect(placed).toEqual(Object.fromEntries(secrets.map((s) => [s.label, s.allowedIn])));
  });

  it("the logs hold none of them", () => {
    const text = logs.text();
    expect(secrets.filter((s) => text.includes(s.value)).map((s) => s.label)).toEqual([]);
  });
});
