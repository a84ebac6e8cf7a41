import { parseArgs } from "node:util";
import { SetupError } from "@kasse/db";
import { loadBaseConfig, loadConfig, openDatabase } from "@kasse/runtime";
import { helpText } from "./help";

// Commands load the app, the engine and the flows lazily, so `kasse --help` answers at once.
// Only `start` serves HTTP and needs JWT_SECRET; the others read the base configuration.

/** Runs one `kasse` command line (arguments after `kasse`); resolves to the exit code (a started server keeps running). */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h" },
      email: { type: "string" },
      password: { type: "string" },
      "no-worker": { type: "boolean" },
      processes: { type: "string" },
      "publishable-key": { type: "string" },
    },
  });
  const [command] = positionals;
  if (values.help || command === undefined || command === "help") {
    console.log(helpText());
    return 0;
  }
  switch (command) {
    case "start": {
      const processes = values.processes === undefined ? 1 : Number(values.processes);
      if (!Number.isInteger(processes) || processes < 1 || processes > 64) {
        console.error(`--processes takes a whole number from 1 to 64, not '${values.processes}'.`);
        return 2;
      }
      const config = loadConfig();
      const [{ default: cluster }, { clusterRefusal, startCluster }] = await Promise.all([
        import("node:cluster"),
        import("./cluster"),
      ]);
      const refusal = clusterRefusal(config, processes);
      if (refusal) {
        console.error(refusal);
        return 2;
      }
      if (processes > 1 && cluster.isPrimary) return startCluster(processes, config.metrics);
      const { start } = await import("./start");
      await start({ config, worker: !values["no-worker"] });
      return 0;
    }
    case "migrate": {
      const config = loadBaseConfig();
      const { migrateExclusively } = await import("./migrate");
      const { database } = await openDatabase(config, "kasse migrate");
      try {
        await migrateExclusively(database);
      } finally {
        await database.close();
      }
      console.log(`Migrations applied (${config.embedded ? `embedded database in ${config.dataDir}` : "PostgreSQL"}).`);
      return 0;
    }
    case "check": {
      let config;
      try {
        config = loadBaseConfig();
      } catch (error) {
        console.error((error as Error).message);
        return 2;
      }
      const [{ migrationStatus }, { checkInvariants }, { createModules }, { formatReport }] = await Promise.all([
        import("@kasse/db"),
        import("@kasse/operations"),
        import("@kasse/modules"),
        import("./check"),
      ]);
      let database;
      try {
        ({ database } = await openDatabase(config, "kasse check"));
        await database.ping();
      } catch (error) {
        // A database that cannot be reached or is held by another process says so in its own line.
        console.error(
          error instanceof SetupError ? error.message : `Cannot use the database: ${(error as Error).message}`,
        );
        await database?.close();
        return 2;
      }
      try {
        const { pending } = await migrationStatus(database);
        if (pending.length) {
          console.error(`The database is missing ${pending.length} migration(s): run kasse migrate first.`);
          return 2;
        }
        const cap = 50;
        const { leaseMs, recoveryEveryMs } = config.workflows;
        const results = await checkInvariants(createModules(), { leaseMs, recoveryEveryMs, cap });
        console.log(formatReport(results, cap));
        return results.some((r) => r.violations.length) ? 1 : 0;
      } finally {
        await database.close();
      }
    }
    case "seed": {
      const config = loadBaseConfig();
      const [{ createInfrastructure }, { seedDemoStore }, { demoPicture }, { describeStore }] = await Promise.all([
        import("@kasse/runtime"),
        import("@kasse/operations"),
        import("@kasse/api"),
        import("./seed"),
      ]);
      const infra = await createInfrastructure(config, { holder: "kasse seed" });
      try {
        const store = await seedDemoStore(infra.modules, {
          publishableKey: values["publishable-key"],
          pictures: demoPicture,
        });
        console.log(
          store ? describeStore(store).join("\n") : "The store already has regions or products: nothing seeded.",
        );
      } finally {
        await infra.close();
      }
      return 0;
    }
    case "admin": {
      if (positionals[1] !== "build") break;
      const { buildAdminUi } = await import("./admin-ui");
      console.log(await buildAdminUi(loadConfig()));
      return 0;
    }
    case "credentials": {
      const config = loadBaseConfig();
      const [{ createModules }, { describeCredentials }] = await Promise.all([
        import("@kasse/modules"),
        import("./credentials"),
      ]);
      const { database } = await openDatabase(config, "kasse credentials");
      try {
        console.log((await describeCredentials(createModules())).join("\n"));
      } finally {
        await database.close();
      }
      return 0;
    }
    case "user": {
      if (positionals[1] === "reset-password") {
        if (!values.email) {
          console.error("Usage: kasse user reset-password --email <email> [--password <password>]");
          return 2;
        }
        const config = loadBaseConfig();
        const [{ createModules }, { resetAdminPassword }] = await Promise.all([
          import("@kasse/modules"),
          import("./credentials"),
        ]);
        const { database } = await openDatabase(config, "kasse user reset-password");
        try {
          const reset = await resetAdminPassword(createModules({ scryptLogN: config.scryptLogN }), {
            email: values.email,
            password: values.password,
          });
          console.log(
            reset.generatedPassword
              ? `New password of admin user ${reset.email}: ${reset.generatedPassword} (shown once); its sessions ended.`
              : `Password of admin user ${reset.email} set; its sessions ended.`,
          );
        } finally {
          await database.close();
        }
        return 0;
      }
      if (positionals[1] !== "create") break;
      if (!values.email || !values.password) {
        console.error("Usage: kasse user create --email <email> --password <password>");
        return 2;
      }
      const config = loadBaseConfig();
      const [{ createInfrastructure }, { createUserAccount }] = await Promise.all([
        import("@kasse/runtime"),
        import("@kasse/flows"),
      ]);
      const infra = await createInfrastructure(config, { holder: "kasse user create" });
      try {
        const { user_id } = await createUserAccount(
          infra.engine,
          { email: values.email, password: values.password },
          { scryptLogN: config.scryptLogN },
        );
        console.log(
          `Created admin user ${values.email.trim().toLowerCase()} (${user_id}); sign in at POST /auth/user/emailpass.`,
        );
      } finally {
        await infra.close();
      }
      return 0;
    }
  }
  console.error(`Unknown command '${positionals.join(" ")}'.\n`);
  console.error(helpText());
  return 2;
}
