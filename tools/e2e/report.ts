import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exchange } from "./recorder";
import type { StepOutcome } from "./runner";

export interface RunSummary {
  basePath: string;
  storefrontCommit: string;
  phases: Record<string, number>;
  outcomes: StepOutcome[];
  totalMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Writes report.md, report.json and traffic.json into the artifacts folder and prints the summary; returns the failed step count. */
export function writeReport(artifacts: string, summary: RunSummary, exchanges: Exchange[]): number {
  const failed = summary.outcomes.filter((o) => o.status !== "passed");
  const passed = summary.outcomes.length - failed.length;
  const lines = [
    `# Storefront end-to-end run`,
    "",
    `Storefront commit ${summary.storefrontCommit}, Kasse base path \`${summary.basePath || "/"}\`.`,
    "",
    `Phases: ${Object.entries(summary.phases)
      .map(([name, ms]) => `${name} ${seconds(ms)}`)
      .join(", ")}; total ${seconds(summary.totalMs)}.`,
    "",
    "| journey | step | result | ms |",
    "|---|---|---|---:|",
    ...summary.outcomes.map((o) => `| ${o.journey} | ${o.step} | ${o.status} | ${o.ms} |`),
    "",
    "## Failures",
    "",
    ...failed.flatMap((o) => [
      `### ${o.journey} › ${o.step} (${o.status})`,
      "",
      ...o.failures.map((f) => `- ${f.replace(/\n/g, " ")}`),
      "",
    ]),
  ];
  writeFileSync(join(artifacts, "report.md"), lines.join("\n"));
  writeFileSync(join(artifacts, "report.json"), JSON.stringify(summary, null, 2));
  writeFileSync(join(artifacts, "traffic.json"), JSON.stringify(exchanges, null, 2));

  console.log(
    `\nPhases: ${Object.entries(summary.phases)
      .map(([name, ms]) => `${name} ${seconds(ms)}`)
      .join(", ")}`,
  );
  console.log(`Report, screenshots and Kasse traffic: ${artifacts}`);
  console.log(`Total runtime ${seconds(summary.totalMs)}`);
  // The plain closing line CI reads.
  console.log(`${passed} passed, ${failed.length} failed`);
  return failed.length;
}
