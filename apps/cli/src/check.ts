import type { CheckResult } from "@kasse/operations";

/** How many violations of one check the report lists (the check itself collects a few more, to say "at least"). */
const SHOWN = 10;

/** `kasse check`'s report: one line a check, `ok` or its violations by id (the first few), then a summary. */
export function formatReport(results: CheckResult[], cap: number): string {
  const lines = results.map(({ name, violations }) => {
    if (!violations.length) return `ok    ${name}`;
    const count = violations.length >= cap ? `at least ${cap}` : `${violations.length}`;
    const listed = violations.slice(0, SHOWN).map((v) => `\n        ${v.id}: ${v.problem}`);
    const more =
      violations.length > SHOWN
        ? `\n        … and ${violations.length - SHOWN}${violations.length >= cap ? "+" : ""} more`
        : "";
    return `FAIL  ${name}: ${count} violation${violations.length === 1 ? "" : "s"}${listed.join("")}${more}`;
  });
  const failed = results.filter((r) => r.violations.length).length;
  lines.push(failed ? `${failed} of ${results.length} checks failed.` : `All ${results.length} checks passed.`);
  return lines.join("\n");
}
