import { isKasseError } from "@kasse/core";
import { SetupError } from "@kasse/db";
import { run } from "./cli";

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    // Faults of the configuration or the surroundings, and usage mistakes, are the operator's: their message is enough, no stack.
    if (error instanceof SetupError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))
      console.error((error as Error).message);
    else if (isKasseError(error) && error.status < 500) console.error(`${error.type}: ${error.message}`);
    else console.error(error);
    process.exitCode = 1;
  },
);
