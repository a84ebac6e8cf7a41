import { ADMIN_BASE, adminBuildState, buildAdmin } from "@kasse/admin";
import type { Config } from "@kasse/runtime";

/**
 * What `kasse start` says about the dashboard at /app. When the build for this configuration is
 * missing it starts it in the background (the API already serves; /app answers 503 until the
 * build is in place) and prints a line when it is done, so a first start is not held up by it.
 */
export function prepareAdminUi(config: Config, url: string): string | undefined {
  if (!config.adminUi.enabled) return undefined;
  const at = `${url}${ADMIN_BASE}`;
  let ready: boolean;
  try {
    ready = adminBuildState(config.adminUi).ready;
  } catch (error) {
    return `Admin dashboard unavailable: ${(error as Error).message}`;
  }
  if (ready) return `Admin dashboard: ${at}`;
  buildAdmin(config.adminUi).then(
    (result) => console.log(`Admin dashboard built in ${Math.round(result.ms / 1000)} s: ${at}`),
    (error: unknown) =>
      console.error(
        `${(error as Error).message}\nThe API is unaffected; /app answers 503 until \`npm run build:admin\` succeeds.`,
      ),
  );
  return `Admin dashboard: ${at} (being built in the background, about a minute on first start; /app answers 503 until then)`;
}

/** `kasse admin build`: builds the dashboard for this configuration in the foreground, unless it is already built. */
export async function buildAdminUi(config: Config): Promise<string> {
  const result = await buildAdmin(config.adminUi);
  return result.built
    ? `Admin dashboard built in ${Math.round(result.ms / 1000)} s: ${result.dir}`
    : `Admin dashboard already built for this configuration: ${result.dir}`;
}
