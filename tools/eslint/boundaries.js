// Import boundaries (docs/CONVENTIONS.md "Layers"): apps → runtime → flows → modules → db → core; modules, flows → workflows.
// A module never imports another module (nor the package's container, `@kasse/modules`, which holds
// them all); the container, a file of `packages/modules/src` itself, imports every module. Packages never import apps.
import fs from "node:fs";
import path from "node:path";
import dataLayer from "./data-layer.js";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The drizzle tables of each module (`modules/<name>`) and of the engine (`workflows`), read from
 * their schema files: private to their package. Flows and apps read and write through module
 * methods (and the engine's API), never a table.
 */
function privateTables() {
  const tables = new Map();
  const collect = (key, file) => {
    if (!fs.existsSync(file)) return;
    // Every table, however declared (`pgTable(`, `entityTable(`).
    const names = [...fs.readFileSync(file, "utf8").matchAll(/export const (\w+) = (?:pgTable|entityTable)\(/g)].map(
      (m) => m[1],
    );
    tables.set(key, new Set(names));
  };
  const modules = path.join(root, "packages/modules/src");
  for (const name of fs.existsSync(modules) ? fs.readdirSync(modules) : [])
    collect(`modules/${name}`, path.join(modules, name, "schema.ts"));
  collect("workflows", path.join(root, "packages/workflows/src/schema.ts"));
  return tables;
}
const tables = privateTables();

/** Tests and test helpers may inspect tables (prefer module methods or `@kasse/db/testing`). */
const isTestCode = (file) =>
  /\.test\.ts$/.test(file) || /[/\\](test|testing|bench)[/\\]/.test(path.relative(root, file));

/** `kasse check` reads tables across modules to verify them, as tests do. */
const isIntegrityCheck = (file) => /(^|[/\\])check(\.ts|[/\\])/.test(path.relative(root, file));

function locate(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === "apps") return { layer: "apps", name: rel[1] };
  // A file directly in packages/modules/src (the container, `modules.ts`) is the package, not a module: "*".
  if (rel[0] === "packages" && rel[1] === "modules" && rel[2] === "src")
    return { layer: "modules", name: rel.length === 4 ? "*" : rel[3] };
  if (rel[0] === "packages") return { layer: rel[1], name: rel[1] };
  return { layer: "other" };
}

function target(source, file) {
  if (source.startsWith("@kasse/")) {
    const [, pkg, sub] = source.split("/");
    if (["api", "worker", "cli", "admin", "operations"].includes(pkg)) return { layer: "apps", name: pkg };
    if (pkg === "modules") return { layer: "modules", name: sub ?? "*" };
    return { layer: pkg, name: pkg };
  }
  if (source.startsWith(".")) return locate(path.resolve(path.dirname(file), source));
  return null;
}

const allowed = {
  core: ["core"],
  db: ["core", "db"],
  workflows: ["core", "db", "workflows"],
  modules: ["core", "db", "workflows", "modules"],
  flows: ["core", "db", "workflows", "modules", "flows"],
  runtime: ["core", "db", "workflows", "modules", "flows", "runtime"],
  apps: ["core", "db", "workflows", "modules", "flows", "runtime", "apps"],
};

export default {
  rules: {
    "data-layer": dataLayer,
    boundaries: {
      meta: { type: "problem", messages: { forbidden: "{{from}} may not import {{to}} ({{why}})" }, schema: [] },
      create(context) {
        const file = context.filename;
        const from = locate(file);
        if (from.layer === "other") return {};
        const check = (node) => {
          const source = node.source?.value;
          if (typeof source !== "string") return;
          const to = target(source, file);
          if (!to) return;
          const why = !allowed[from.layer]?.includes(to.layer)
            ? "dependencies point apps → runtime → flows → modules → db → core"
            : from.layer === "modules" &&
                to.layer === "modules" &&
                to.name !== from.name &&
                from.name !== "*" &&
                !(to.name === "*" && isTestCode(file))
              ? "a module never imports another module (its tests may build the whole container)"
              : null;
          if (why)
            context.report({
              node,
              messageId: "forbidden",
              data: { from: `${from.layer}/${from.name}`, to: `${to.layer}/${to.name}`, why },
            });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: (n) => check({ ...n, source: n.source }),
        };
      },
    },
    // Flows and apps (outside tests) import no `drizzle-orm`, no schema file and no table: every
    // read and write goes through a module method (tables are the modules' own).
    "private-tables": {
      meta: {
        type: "problem",
        messages: { forbidden: "{{from}} may not import {{what}}: read and write through a module method ({{why}})" },
        schema: [],
      },
      create(context) {
        const file = context.filename;
        const from = locate(file);
        if ((from.layer !== "flows" && from.layer !== "apps") || isTestCode(file)) return {};
        const report = (node, what) =>
          context.report({
            node,
            messageId: "forbidden",
            data: { from: `${from.layer}/${from.name}`, what, why: "tables are private to their module" },
          });
        const check = (node) => {
          const source = node.source?.value;
          if (typeof source !== "string") return;
          if (source === "drizzle-orm" || source.startsWith("drizzle-orm/")) return report(node, `'${source}'`);
          if (/^@kasse\/modules\/[^/]+\/tables$/.test(source) && !isIntegrityCheck(file))
            return report(node, `the tables entry point '${source}' (tests, migrations and \`kasse check\` only)`);
          if (
            /^@kasse\/modules\/[^/]+\/schema$/.test(source) ||
            (source.startsWith(".") && /[/\\]schema(\.ts)?$/.test(source))
          )
            return report(node, `the schema file '${source}'`);
          const to = target(source, file);
          const key = to?.layer === "modules" ? `modules/${to.name}` : to?.layer === "workflows" ? "workflows" : null;
          const private_ = key && tables.get(key);
          if (!private_) return;
          for (const spec of node.specifiers ?? []) {
            const name =
              spec.type === "ImportSpecifier" || spec.type === "ExportSpecifier"
                ? (spec.imported ?? spec.local).name
                : null;
            if (spec.type === "ImportNamespaceSpecifier") report(node, `all of '${source}' (it holds tables)`);
            else if (name && private_.has(name)) report(spec, `the table '${name}' of ${key}`);
          }
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: (node) => check(node),
          ImportExpression: (n) => check({ ...n, source: n.source }),
        };
      },
    },
  },
};
