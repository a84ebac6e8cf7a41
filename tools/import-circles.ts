// The import-circle check of `npm run lint` ([16]): no group of files in packages/ and apps/ imports
// each other, type imports included. madge resolves `@kasse/*` imports through paths made from each
// workspace's package.json `exports` (it does not read `exports` itself), so circles that cross
// workspaces are seen too. Exits 1 and lists each circle when there is one.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import madge from "madge";

const root = resolve(import.meta.dirname, "..");
const workspaces: string[] = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces;

/** `@kasse/x/sub` → its source file, for every export of every workspace (`*` patterns kept). */
function pathsOfExports(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const pattern of workspaces) {
    const parent = join(root, pattern.replace(/\/\*$/, ""));
    for (const dir of readdirSyncSafe(parent)) {
      const manifest = join(parent, dir, "package.json");
      let pkg: { name: string; exports?: string | Record<string, string | Record<string, string>> };
      try {
        pkg = JSON.parse(readFileSync(manifest, "utf8"));
      } catch {
        continue;
      }
      const exports = typeof pkg.exports === "string" ? { ".": pkg.exports } : (pkg.exports ?? {});
      for (const [key, target] of Object.entries(exports)) {
        const file = typeof target === "string" ? target : (target.import ?? target.default);
        if (!file) continue;
        paths[key === "." ? pkg.name : `${pkg.name}${key.slice(1)}`] = [join(dirname(manifest), file)];
      }
    }
  }
  return paths;
}

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const result = await madge([join(root, "packages"), join(root, "apps")], {
  fileExtensions: ["ts"],
  excludeRegExp: [/\.tsc\//, /node_modules/, /\/dist\//],
  tsConfig: { compilerOptions: { baseUrl: root, paths: pathsOfExports() } },
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const circles = result.circular();
if (circles.length > 0) {
  console.error(`import circles (${circles.length}):\n${circles.map((c) => `  ${c.join(" > ")}`).join("\n")}`);
  process.exit(1);
}
console.log(`import circles: none in ${Object.keys(result.obj()).length} files`);
