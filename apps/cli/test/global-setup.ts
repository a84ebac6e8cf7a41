import { fileURLToPath } from "node:url";

/** The tests run `kasse` and the worker as a user does, compiled: compile them once, before the test files start processes in parallel. */
export default async function setup(): Promise<void> {
  const builder = fileURLToPath(new URL("../../../tools/build.mjs", import.meta.url));
  const { build } = (await import(builder)) as { build(name: string): Promise<unknown> };
  await Promise.all([build("cli"), build("worker")]);
}
