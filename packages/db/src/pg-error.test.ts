import { describe, expect, it } from "vitest";
import { connectionFailure } from "./pg-error";
import { SetupError } from "./setup-error";

const url = "postgres://kasse:s3cret@db.example:6543/shop";
const failure = (error: unknown) => {
  const result = connectionFailure(error, url, 10);
  expect(result).toBeInstanceOf(SetupError);
  expect(result.message).not.toContain("s3cret");
  return result.message;
};
const where = 'Cannot use PostgreSQL at db.example:6543 (database "shop", role "kasse")';

// The causes a process meets on a real server (refused, no database, no role) are in apps/cli/test/faults.test.ts.
describe("connectionFailure", () => {
  it("names the host, port, database and role, the cause and the fix, never the password", () => {
    const system = (code: string) => Object.assign(new Error(`getaddrinfo ${code}`), { code });
    expect(failure(system("ENOTFOUND"))).toBe(
      `${where}: the host "db.example" is not known; fix the host in DATABASE_URL.`,
    );
    expect(failure(system("CONNECT_TIMEOUT"))).toBe(
      `${where}: no answer within 10 s; check the host and port in DATABASE_URL and that the network lets you reach it.`,
    );
    // Node's attempt at every address of a host: the first one's code tells.
    expect(failure(Object.assign(new AggregateError([system("ECONNREFUSED")]), { code: undefined }))).toMatch(
      /: connection refused; start PostgreSQL there/,
    );
    const pg = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(failure(pg("28P01", 'password authentication failed for user "kasse"'))).toBe(
      `${where}: the password was refused; fix the password in DATABASE_URL.`,
    );
    expect(failure(pg("28000", 'no pg_hba.conf entry for host "10.0.0.1"'))).toBe(
      `${where}: the server refuses this role here (no pg_hba.conf entry for host "10.0.0.1"); allow it in pg_hba.conf, or fix DATABASE_URL.`,
    );
    expect(failure(new Error("self-signed certificate"))).toBe(
      `${where}: self-signed certificate; check DATABASE_URL.`,
    );
  });
});
