import tseslint from "typescript-eslint";
import kasse from "./tools/eslint/boundaries.js";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "drizzle/**", ".kasse/**", ".e2e/**", "**/dist/**", "**/.tsc/**", "**/*.mjs"] },
  ...tseslint.configs.recommended,
  {
    plugins: { kasse },
    rules: {
      "kasse/boundaries": "error",
      "kasse/private-tables": "error",
      "kasse/data-layer": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  { files: ["apps/cli/**", "tools/**"], rules: { "no-console": "off" } },
);
