import { parseArgs } from "node:util";

/** How a soak runs (`npm run soak -- --help`). */
export interface SoakOptions {
  durationS: number;
  users: number;
  /** An API process is SIGKILLed (and restarted) this often. */
  apiKillEveryS: number;
  /** Restart the system PostgreSQL cluster once: it disturbs everyone else's tests on the machine. */
  restartPostgres: boolean;
  /** Units of each scarce variant: checkouts race for them. */
  scarceStock: number;
  /** Orders the soak's promotion campaign allows (a usage budget). */
  promotionBudget: number;
  /** Keep the soak's database afterwards (to look at it). */
  keepDatabase: boolean;
}

const HELP = `npm run soak -- [options]
  --duration <s>          how long the users run (default 300)
  --users <n>             concurrent users (default 32)
  --api-kill-every <s>    SIGKILL an API process this often, then restart it (default 20)
  --no-restart-postgres   do not restart the system PostgreSQL cluster (other tests on the machine notice it)
  --scarce-stock <n>      units of each of the two scarce variants (default 20)
  --promotion-budget <n>  orders the SOAK10 campaign allows (default 30)
  --keep-database         keep the soak's database afterwards`;

/** Reads the command line; prints the help and exits on `--help`. */
export function parseSoakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: "boolean", short: "h" },
      duration: { type: "string" },
      users: { type: "string" },
      "api-kill-every": { type: "string" },
      "no-restart-postgres": { type: "boolean" },
      "scarce-stock": { type: "string" },
      "promotion-budget": { type: "string" },
      "keep-database": { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const positive = (name: string, value: string | undefined, fallback: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not ${value}`);
    return n;
  };
  return {
    durationS: positive("duration", values.duration, 300),
    users: positive("users", values.users, 32),
    apiKillEveryS: positive("api-kill-every", values["api-kill-every"], 20),
    restartPostgres: !values["no-restart-postgres"],
    scarceStock: positive("scarce-stock", values["scarce-stock"], 20),
    promotionBudget: positive("promotion-budget", values["promotion-budget"], 30),
    keepDatabase: values["keep-database"] ?? false,
  };
}
