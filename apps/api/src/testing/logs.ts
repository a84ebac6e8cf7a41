import type { KasseLoggerOptions } from "@kasse/runtime";

/** Every line a logger wrote, for tests that search the logs. */
export interface CapturedLogs {
  /** Logger options writing every level (trace and up) here: pass them as `createTestApp(env, { logger })`. */
  logger: KasseLoggerOptions;
  /** The raw JSON lines, in order. */
  lines: string[];
  /** All lines as one text. */
  text(): string;
}

/**
 * A pino destination stream in memory at level trace.
 * @example
 * const logs = captureLogs();
 * const t = await createTestApp({}, { logger: logs.logger });
 * expect(logs.text()).not.toContain(password);
 */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  return {
    logger: { level: "trace", stream: { write: (line: string) => void lines.push(line) } },
    lines,
    text: () => lines.join(""),
  };
}
