import { envTable } from "./env-help";

/** The commands `kasse` knows, as `kasse --help` lists them. */
const commands = [
  [
    "start",
    "Serve the API on HOST:PORT with the worker in-process. Without DATABASE_URL: embedded PGlite under KASSE_DATA_DIR, migrated, and on the first start a demo store and an admin (login printed once)",
  ],
  ["start --no-worker", "Serve the API only, beside separate worker processes (services mode)"],
  [
    "start --processes <n>",
    "Serve the API from n processes on one port (node cluster; a process that dies is restarted), each with a worker unless --no-worker. Services mode only (PostgreSQL and Redis)",
  ],
  [
    "migrate",
    "Apply pending database migrations; needs only DATABASE_URL (one process at a time: takes a PostgreSQL advisory lock). start refuses a database missing migrations",
  ],
  [
    "seed [--publishable-key pk_…]",
    "Create the demo store (regions, channel, publishable key, 20 products) unless the store has regions or products; --publishable-key sets the key's token instead of generating one (a storefront built against it keeps working on a new seed)",
  ],
  [
    "check",
    "Verify the database's invariants (stock levels and reservations, payment amounts, one order per completed cart, stuck workflow executions) read-only; prints each check's result and exits 0 when all hold, 1 when one is violated, 2 on a bad configuration or an unreachable/unmigrated database",
  ],
  [
    "admin build",
    "Build Medusa's admin dashboard for /app for this configuration (MEDUSA_BASE_PATH) unless built; start does it in the background when missing",
  ],
  [
    "user create --email <email> --password <password>",
    "Create an admin user with an email/password login (POST /auth/user/emailpass)",
  ],
  [
    "user reset-password --email <email> [--password <p>]",
    "Set an admin user's password (generated and printed once when --password is not given) and end its sessions: passwords are stored hashed and cannot be shown again",
  ],
  [
    "credentials",
    "Print the admin users' emails and the active publishable API keys (the first start prints them once)",
  ],
  ["help", "This text (also --help, -h)"],
] as const;

/** `kasse --help`: usage, commands and every environment variable with its default. */
export function helpText(): string {
  const rows = envTable();
  const nameWidth = Math.max(...rows.map((r) => r.name.length));
  const defaultWidth = Math.max(7, ...rows.map((r) => r.default.length));
  const commandWidth = Math.max(...commands.map(([c]) => c.length));
  return [
    "Kasse: a commerce backend speaking Medusa v2's HTTP API",
    "",
    "Usage: kasse <command> [options]",
    "",
    "Commands:",
    ...commands.map(([c, d]) => `  ${c.padEnd(commandWidth)}  ${d}`),
    "",
    "Environment variables:",
    `  ${"NAME".padEnd(nameWidth)}  ${"DEFAULT".padEnd(defaultWidth)}  DESCRIPTION`,
    ...rows.map((r) => `  ${r.name.padEnd(nameWidth)}  ${(r.default || "-").padEnd(defaultWidth)}  ${r.description}`),
    "",
  ].join("\n");
}
