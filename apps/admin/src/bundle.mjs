// Builds Medusa's dashboard with @medusajs/admin-bundler into <outDir> for the URL path <base>, calling Kasse at <backendPath>
// on the page's own origin. Run by build.ts in a child process whose working directory is a scratch
// folder: the bundler writes its entry files to ./.medusa/client and Vite's CPU work stays off the
// server's event loop. ADMIN_AUTH_TYPE=jwt comes from the environment (the bundler reads it there).
// Usage: node bundle.mjs <outDir> <base> <backendPath>
import bundler from "@medusajs/admin-bundler";

const [outDir, base, backendPath] = process.argv.slice(2);
if (!outDir || !base || !backendPath) {
  console.error("usage: node bundle.mjs <outDir> <base> <backendPath>");
  process.exit(2);
}

// The js-sdk takes "/" as "this origin" but throws on a bare path such as "/medusa" (it needs an
// absolute URL), so any other path becomes an expression evaluated in the browser: the page's origin
// plus the path. Vite's `define` accepts only literals and names, so a pre-transform writes the
// expression where the dashboard reads the __BACKEND_URL__ global.
const backendUrl =
  backendPath === "/" ? JSON.stringify("/") : `(window.location.origin + ${JSON.stringify(backendPath)})`;
const backendOnThisOrigin = {
  name: "kasse-backend-url",
  enforce: "pre",
  transform(code) {
    return code.includes("__BACKEND_URL__")
      ? { code: code.replaceAll("__BACKEND_URL__", backendUrl), map: null }
      : null;
  },
};

await bundler.build({
  path: base,
  backendUrl: "/",
  storefrontUrl: "",
  outDir,
  sources: [],
  plugins: [],
  vite: () => ({ plugins: [backendOnThisOrigin] }),
});
