import assert from "node:assert/strict";
import { open } from "../ui";
import type { DashboardAction } from "./action";

interface Execution {
  id: string;
  workflow_id: string;
  steps: Array<{ name: string; state: string }>;
}

/**
 * The Workflows settings pages show each execution's progress from its steps ("n of n steps", never
 * "0 of 0"), and an execution's page lists its steps by name, as Kasse's journal has them.
 */
export const workflowExecutions: DashboardAction = {
  name: "workflow-executions",
  async run({ page, kasse, api, seeded, shot }) {
    await open(page, kasse.origin, "/settings/workflows");
    const table = page.locator("table");
    await table
      .getByText(/\d+ of \d+ steps/)
      .first()
      .waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await table.getByText("0 of 0 steps").count(), 0, 'no execution shows "0 of 0 steps"');
    await shot("list");

    const id = seeded.more.workflowExecutionId;
    const { workflow_execution } = await api<{ workflow_execution: Execution }>(
      "GET",
      `/admin/workflow-executions/${id}`,
    );
    assert.ok(workflow_execution.steps.length > 0, "the execution ran steps");
    const count = workflow_execution.steps.length;
    const done = workflow_execution.steps.filter((s) => s.state === "succeeded").length;
    await open(page, kasse.origin, `/settings/workflows/${id}`);
    await page.getByText(workflow_execution.workflow_id).first().waitFor({ state: "visible", timeout: 20_000 });
    for (const step of new Set(workflow_execution.steps.map((s) => s.name))) {
      assert.ok(
        await page.getByText(step, { exact: true }).first().isVisible(),
        `the execution's page shows its step ${step}`,
      );
    }
    assert.equal(await page.getByText("0 of 0 steps").count(), 0, 'the execution\'s page does not show "0 of 0 steps"');
    await shot(`detail-${done}-of-${count}-steps`);
  },
};
