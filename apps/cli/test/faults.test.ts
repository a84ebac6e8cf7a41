import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { kasse, node } from "./kasse-process";

// Faults of the configuration and of the surroundings, each met by a real process: one line
// naming the cause and the fix, an exit code other than 0, no stack trace.

const workerBin = fileURLToPath(new URL("../../worker/bin/kasse-worker.js", import.meta.url));
const secret = { JWT_SECRET: "faults-test-secret-faults-test" };

/** Its whole output, trimmed, is one line (no stack trace, no second message). */
const oneLine = (text: string) => {
  expect(text.trim().split("\n"), text).toHaveLength(1);
  return text.trim();
};

describe("a bad configuration", () => {
  it("names each bad variable with the values it allows, for kasse and the worker", async () => {
    const start = await kasse(["start"], { LOG_LEVEL: "verbose", TRUST_PROXY: "yes" });
    expect(start.code).toBe(1);
    expect(start.stderr.trim()).toBe(
      "Invalid configuration:\n  LOG_LEVEL=verbose: expected one of fatal, error, warn, info, debug, trace, silent\n  TRUST_PROXY=yes: expected true or false",
    );
    const worker = await node([workerBin], { JWT_EXPIRES_IN: "1w", PORT: "70000" });
    expect(worker.code).toBe(1);
    expect(worker.stderr.trim()).toBe(
      "Invalid configuration:\n  PORT=70000: expected a whole number from 0 to 65535\n  JWT_EXPIRES_IN=1w: expected a number and a unit s, m, h or d, e.g. 30m, 24h, 7d",
    );
  });
});

describe.skipIf(!onPostgres())("PostgreSQL unreachable or misnamed", () => {
  it("is one line naming host, port, database and role, the cause and the fix, for start, migrate, check and the worker", async () => {
    const server = new URL(process.env.DATABASE_URL!);
    const at = `${server.hostname}:${server.port || "5432"}`;
    const missing = `kasse_missing_${randomBytes(3).toString("hex")}`;
    const urlWith = (change: (url: URL) => void) => {
      const url = new URL(server);
      change(url);
      return url.toString();
    };
    const faults = [
      {
        url: urlWith((url) => ((url.port = "1"), (url.pathname = "/kasse"))),
        line: `Cannot use PostgreSQL at ${server.hostname}:1 (database "kasse", role "${server.username}"): connection refused; start PostgreSQL there, or fix the host and port in DATABASE_URL.`,
      },
      {
        url: urlWith((url) => (url.pathname = `/${missing}`)),
        line: `Cannot use PostgreSQL at ${at} (database "${missing}", role "${server.username}"): the database does not exist; create it: \`createdb -h ${server.hostname} -p ${server.port || "5432"} -U ${server.username} ${missing}\`, or fix DATABASE_URL.`,
      },
      {
        url: urlWith((url) => ((url.username = "kasse_no_such_role"), (url.pathname = "/postgres"))),
        line: `Cannot use PostgreSQL at ${at} (database "postgres", role "kasse_no_such_role"): the role does not exist; create it as a superuser: \`createuser -h ${server.hostname} -p ${server.port || "5432"} -U postgres --createdb kasse_no_such_role\`, or fix DATABASE_URL.`,
      },
    ];
    const runs = faults.flatMap(({ url, line }) => {
      const env = { DATABASE_URL: url, REDIS_URL: "redis://127.0.0.1:1", ...secret };
      return [
        { what: "start", line, code: 1, run: kasse(["start"], { ...env, PORT: "0" }) },
        { what: "migrate", line, code: 1, run: kasse(["migrate"], env) },
        { what: "check", line, code: 2, run: kasse(["check"], env) },
        { what: "worker", line, code: 1, run: node([workerBin], env) },
      ];
    });
    for (const { what, line, code, run } of runs) {
      const result = await run;
      expect(oneLine(result.stderr), what).toBe(line);
      expect(result.code, what).toBe(code);
    }
  }, 120_000);
});

describe.skipIf(!onPostgres())("a busy port", () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.close());

  it("is one line naming the port and the fix", async () => {
    database = await createTestDatabase();
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as { port: number };
    try {
      const result = await kasse(["start", "--no-worker"], {
        DATABASE_URL: database.url!,
        PORT: String(port),
        HOST: "127.0.0.1",
        ...secret,
      });
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toBe(
        `Cannot listen: port ${port} on 127.0.0.1 is in use; set PORT to a free port, or stop the process that listens there.`,
      );
    } finally {
      other.close();
    }
  }, 60_000);
});
