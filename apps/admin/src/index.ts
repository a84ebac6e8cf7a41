export {
  ADMIN_BASE,
  adminDir,
  buildInputs,
  normalizeBackendPath,
  type AdminBuildOptions,
  type BuildInputs,
} from "./inputs";
export { adminBuildState, buildAdmin, type AdminBuildState, type BuildResult } from "./build";
