import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Api } from "../api";
import type { RunningKasse } from "../kasse";
import type { Seeded } from "../seed";
import { settle } from "../ui";
import type { DashboardAction } from "./action";

export interface ActionResult {
  name: string;
  /** Why it failed; absent when it passed. */
  error?: string;
  /** Screenshots of its results (and of the page it failed on), relative to the output folder. */
  screenshots: string[];
  ms: number;
}

let counter = 0;

/** Runs one action, taking its screenshots into `shots`; a failure is recorded with a screenshot of where it stopped. */
export async function runAction(
  action: DashboardAction,
  env: { page: Page; kasse: RunningKasse; api: Api; seeded: Seeded; shots: string },
): Promise<ActionResult> {
  const started = Date.now();
  const screenshots: string[] = [];
  const shot = async (label: string) => {
    await settle(env.page);
    const file = `shots/a${String(++counter).padStart(2, "0")}-${action.name}-${label}.png`;
    await env.page.screenshot({ path: join(env.shots, "..", file) });
    screenshots.push(file);
  };
  try {
    await action.run({ page: env.page, kasse: env.kasse, api: env.api, seeded: env.seeded, shot });
    return { name: action.name, screenshots, ms: Date.now() - started };
  } catch (error) {
    await shot("failed").catch(() => undefined);
    return {
      name: action.name,
      error:
        error instanceof Error
          ? error.message
              .split("\n")
              .filter((line) => line.trim() && !line.includes("Call log"))
              .slice(0, 3)
              .join(" / ")
          : String(error),
      screenshots,
      ms: Date.now() - started,
    };
  }
}
