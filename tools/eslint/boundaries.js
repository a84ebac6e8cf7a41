// Import boundaries (docs/CONVENTIONS.md "Layers"): apps → flows → modules → db; modules, flows → workflows.
// A module never imports another module; packages never import apps.
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

function locate(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === "apps") return { layer: "apps", name: rel[1] };
  if (rel[0] === "packages" && rel[1] === "modules" && rel[2] === "src") return { layer: "modules", name: rel[3] };
  if (rel[0] === "packages") return { layer: rel[1], name: rel[1] };
  return { layer: "other" };
}

function target(source, file) {
  if (source.startsWith("@kasse/")) {
    const [, pkg, sub] = source.split("/");
    if (["api", "worker", "cli", "admin"].includes(pkg)) return { layer: "apps", name: pkg };
    if (pkg === "modules") return { layer: "modules", name: sub };
    return { layer: pkg, name: pkg };
  }
  if (source.startsWith(".")) return locate(path.resolve(path.dirname(file), source));
  return null;
}

const allowed = {
  db: ["db"],
  workflows: ["db", "workflows"],
  modules: ["db", "workflows", "modules"],
  flows: ["db", "workflows", "modules", "flows"],
  apps: ["db", "workflows", "modules", "flows", "apps"],
};

export default {
  rules: {
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
          const why =
            !allowed[from.layer]?.includes(to.layer) ? "dependencies point apps → flows → modules → db"
            : from.layer === "modules" && to.layer === "modules" && to.name !== from.name ? "a module never imports another module"
            : null;
          if (why) context.report({ node, messageId: "forbidden", data: { from: `${from.layer}/${from.name}`, to: `${to.layer}/${to.name}`, why } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: (n) => check({ ...n, source: n.source }) };
      },
    },
  },
};
