import type { Page } from "playwright-core";
import type { Api } from "../api";
import type { RunningKasse } from "../kasse";
import type { Seeded } from "../seed";

/** What an action works with: the signed-in page, Kasse's API to check the effect, the seeded records. */
export interface ActionContext {
  page: Page;
  kasse: RunningKasse;
  /** Kasse's admin API at the root: integer minor units, whatever the dashboard calls. */
  api: Api;
  seeded: Seeded;
  /** Takes a screenshot of the result, named after the action and `label`. */
  shot(label: string): Promise<void>;
}

/** A merchant's task done through the dashboard's own forms, its effect checked through Kasse's API. */
export interface DashboardAction {
  name: string;
  run(ctx: ActionContext): Promise<void>;
}

/** Polls `check` until it stops throwing (the dashboard's request may still be in flight), then returns its value. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
