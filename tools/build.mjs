// Compiles Kasse's programs to JavaScript with esbuild: `apps/cli` (the `kasse` command) and
// `apps/worker` (a dedicated worker process), each one bundle of every workspace it imports
// (@kasse/*) and of the npm packages they use, with source maps. One bundle because Node's module
// loader costs about half a millisecond per file: a start loaded some 850 files (fastify, typebox,
// drizzle, ajv…), a third of a restart. The few packages in OUTSIDE load from node_modules.
//
//   node tools/build.mjs              build both
//   node tools/build.mjs --if-stale   build only what changed since the last build (npm start, prepare)
//   node tools/build.mjs cli          only the named program(s) (the launchers, in a child process)
//
// The launchers (apps/cli/bin/kasse.js, apps/worker/bin/kasse-worker.js) call `ensureBuilt`, so a
// checkout whose sources changed is rebuilt before it runs; `npm run typecheck` is the type check.
import { spawnSync } from "node:child_process";
import { isBuiltin } from "node:module";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The programs: name → entry point and output folder (relative to the repository root). */
export const programs = {
  cli: { entry: "apps/cli/src/main.ts", outdir: "apps/cli/dist" },
  worker: { entry: "apps/worker/src/main.ts", outdir: "apps/worker/dist" },
};

/**
 * Built beside each program's main.js, for its launcher to run before it loads the program: the
 * relaunch of a services-mode server started without Kasse's V8 heap options (node-flags.js).
 */
const LAUNCH_ENTRIES = { "node-flags": "packages/runtime/src/node-flags.ts" };

/** Written last into each output folder: when it was built and from which files (for `--if-stale`). */
const MANIFEST = "build.json";
/** Besides the sources, a change to these rebuilds (externals' paths depend on the installed tree). */
const ALSO = ["tools/build.mjs", "package-lock.json"];

/** Why `name` needs a build, or null when its output is newer than every input. */
export function staleReason(name) {
  const { outdir } = programs[name];
  const manifestFile = join(root, outdir, MANIFEST);
  if (!existsSync(manifestFile)) return "not built yet";
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch {
    return "unreadable build manifest";
  }
  for (const file of [...manifest.inputs, ...ALSO]) {
    let mtime;
    try {
      mtime = statSync(join(root, file)).mtimeMs;
    } catch {
      return `${file} is gone`;
    }
    if (mtime > manifest.started_at) return `${file} changed`;
  }
  for (const file of manifest.outputs) if (!existsSync(join(root, outdir, file))) return `${file} is missing`;
  return null;
}

/**
 * Builds `name` when it is stale (or always with `force`). Several processes may build at once
 * (tests start many): every file is written under a temporary name and renamed into place,
 * chunks before the entry point, and identical inputs give identical files.
 * @returns what was done, for a log line.
 */
export async function build(name, { force = false } = {}) {
  const reason = force ? "forced" : staleReason(name);
  if (!reason) return { name, built: false };
  const started = Date.now();
  const { entry, outdir } = programs[name];
  const out = join(root, outdir);
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new Error(`Cannot build ${outdir} (${reason}): esbuild is not installed. Run \`npm install\` in ${root}.`);
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: join(root, entry),
      ...Object.fromEntries(Object.entries(LAUNCH_ENTRIES).map(([name, path]) => [name, join(root, path)])),
    },
    outdir: out,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    sourcesContent: false,
    chunkNames: "chunk-[hash]",
    metafile: true,
    write: false,
    logLevel: "silent",
    legalComments: "none",
    minifyWhitespace: true,
    minifySyntax: true,
    // Bundled CommonJS packages call require() for Node's own modules and read files beside themselves.
    banner: { js: CHUNK_PRELUDE },
    plugins: [externals(out), sourceRelativeUrls(out), packagePaths(out)],
  });
  mkdirSync(out, { recursive: true });
  const files = result.outputFiles.map((file) => ({ path: file.path, contents: file.contents }));
  // Chunks and maps first, the entry point last: a process starting meanwhile sees the old build or the whole new one.
  files.sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
  for (const file of files) writeAtomically(file.path, file.contents);
  const outputs = files.map((file) => relative(out, file.path));
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes("node_modules/"))
    .sort();
  writeAtomically(join(out, MANIFEST), `${JSON.stringify({ started_at: started, entry, inputs, outputs }, null, 1)}\n`);
  removeOldOutputs(out, new Set([...outputs, MANIFEST]));
  return { name, built: true, reason, ms: Date.now() - started };
}

/**
 * Builds `name` if stale, saying so on a terminal. The launchers call this before running the build.
 * The build runs in a child process: in the launcher's own process the heap it grew to stayed
 * resident for the server's whole life (about 80 MiB more RSS after every upgrade or edit).
 */
export async function ensureBuilt(name) {
  const reason = staleReason(name);
  if (!reason) return;
  const started = Date.now();
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--if-stale", name], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (child.status !== 0) throw new Error(`Compiling ${programs[name].outdir} failed (${reason}); see above.`);
  if (process.stderr.isTTY)
    console.error(`Compiled ${programs[name].outdir} in ${Date.now() - started} ms (${reason}).`);
}

const isEntry = (path) => /[\\/](main|node-flags)\.js$/.test(path);

function writeAtomically(path, contents) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

/** Removes outputs of older builds an hour after they were replaced (a process started just before may still load them). */
function removeOldOutputs(out, keep) {
  const hourAgo = Date.now() - 3600_000;
  for (const file of readdirSync(out)) {
    if (keep.has(file)) continue;
    const path = join(out, file);
    try {
      if (statSync(path).mtimeMs < hourAgo) rmSync(path, { force: true });
    } catch {
      // another builder removed it
    }
  }
}

/**
 * Packages that stay outside the bundle: PGlite finds its WebAssembly and data files beside its own
 * module (import.meta.url), esbuild is a native binary.
 */
const OUTSIDE = new Set(["@electric-sql/pglite", "esbuild"]);

/**
 * The top of every output file: `require` for the bundled CommonJS packages (esbuild's ESM output
 * has none), and `__kassePath`, which turns a path relative to the output folder into a file path.
 */
const CHUNK_PRELUDE = [
  'import { createRequire as __kasseCreateRequire } from "node:module";',
  'import { fileURLToPath as __kasseFileURLToPath } from "node:url";',
  "const require = __kasseCreateRequire(import.meta.url);",
  "const __kassePath = (path) => __kasseFileURLToPath(new URL(path, import.meta.url));",
].join(" ");

/**
 * npm packages are bundled, except OUTSIDE, Node's own modules and packages that are not installed
 * (optional peers a package tries to load). An outside package resolves from the output folder as it
 * did from the source file, except where a workspace has its own copy: that import is written as a
 * relative path to the file the source would have loaded.
 */
function externals(out) {
  return {
    name: "kasse-externals",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith("@kasse/") || args.pluginData?.inner) return undefined;
        if (args.path.startsWith("node:") || isBuiltin(args.path)) return { path: args.path, external: true };
        const name = packageName(args.path);
        if (!OUTSIDE.has(name)) {
          if (!packageDir(args.resolveDir, name)) return { path: args.path, external: true };
          if (args.kind !== "dynamic-import") return undefined;
          // A chunk esbuild splits off for `import()` of a CommonJS package exports only `default`, so
          // `const { Redis } = await import("ioredis")` would find nothing: such a package loads from
          // node_modules, as Node gives it named exports. (They are loaded late: Redis, bull-board, mail.)
          const resolved = await build.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            pluginData: { inner: true },
          });
          if (resolved.errors.length > 0 || !isCommonJs(resolved.path)) return undefined;
        }
        const fromSource = packageDir(args.resolveDir, name);
        if (!fromSource || fromSource === packageDir(out, name)) return { path: args.path, external: true };
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: { inner: true },
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        let path = relative(out, resolved.path).split(sep).join("/");
        if (!path.startsWith(".")) path = `./${path}`;
        return { path, external: true };
      });
    },
  };
}

/** Whether Node loads `file` as CommonJS: a .cjs file, or a .js file whose package.json says no "type": "module". */
function isCommonJs(file) {
  if (file.endsWith(".cjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).type !== "module";
  }
  return true;
}

function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The folder Node would load package `name` from, looking up from `dir`; undefined for a builtin or a missing package. */
function packageDir(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * `import.meta.url` in a workspace source means "this source file" (the admin workspace finds its
 * bundler script, the db package its migrations): in the bundle it becomes that file's URL,
 * relative to the output folder, so the build keeps working wherever the checkout is moved.
 */
function sourceRelativeUrls(out) {
  return {
    name: "kasse-source-urls",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        if (/import\.meta\.(dirname|filename)/.test(source)) {
          return {
            errors: [
              { text: "use import.meta.url (import.meta.dirname and filename are not rewritten for the bundle)" },
            ],
          };
        }
        if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
        const relativePath = relative(out, args.path).split(sep).join("/");
        return {
          contents: source.replaceAll(
            "import.meta.url",
            `new URL(${JSON.stringify(relativePath)}, import.meta.url).href`,
          ),
          loader: "ts",
        };
      });
    },
  };
}

/**
 * A bundled package that reads files beside itself (`__dirname`, `__filename`: swagger-ui's page,
 * pino's worker; `import.meta.url` in an ES module) gets them as the paths of its installed files,
 * relative to the output folder.
 */
function packagePaths(out) {
  return {
    name: "kasse-package-paths",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.(c|m)?js$/ }, (args) => {
        let source = readFileSync(args.path, "utf8");
        const usesPaths = /\b__(dirname|filename)\b/.test(source);
        const usesUrl = source.includes("import.meta.url");
        if (!usesPaths && !usesUrl) return undefined;
        const file = relative(out, args.path).split(sep).join("/");
        if (usesUrl)
          source = source.replaceAll("import.meta.url", `new URL(${JSON.stringify(file)}, import.meta.url).href`);
        // A module that defines its own (`const __dirname = dirname(fileURLToPath(import.meta.url))`) keeps it.
        if (usesPaths && !/\b(var|let|const)\s+__(dirname|filename)\b/.test(source)) {
          const dir = relative(out, dirname(args.path)).split(sep).join("/");
          source = `var __dirname = __kassePath(${JSON.stringify(`${dir}/`)}).replace(/\\/$/, ""), __filename = __kassePath(${JSON.stringify(file)});\n${source}`;
        }
        return { contents: source, loader: "js" };
      });
    },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes("--if-stale");
  const named = process.argv.slice(2).filter((arg) => arg in programs);
  for (const name of named.length ? named : Object.keys(programs)) {
    const result = await build(name, { force: !ifStale });
    console.log(
      result.built ? `${programs[name].outdir}: built in ${result.ms} ms` : `${programs[name].outdir}: up to date`,
    );
  }
}
