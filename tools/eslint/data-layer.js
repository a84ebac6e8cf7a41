// The one way to reach the database ([16], docs/CONVENTIONS.md "Data"): a module's SQL lives in its
// queries file(s), on the ambient handle, written with `statement`, `db`, `inList`, `listPage`,
// `liveRecords`, `jsonRelation` and `groupBy`; nothing takes or passes a database handle. This rule
// forbids what that replaced.
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** What the one way replaced, as @kasse/db exports it. */
const REPLACED = new Map([
  ["builtOnce", "statement()"],
  ["builtPerShape", "statement() (a statement is built per shape of its values)"],
  ["builtRowWrite", "statement() with `.values(v)` / `.set(v)`"],
  ["builtRowsInsert", "insertRows(table, options)"],
  ["param", "a statement's placeholder `v.key`"],
  ["slot", "a statement's placeholder `v.key`"],
  ["inParam", "inList(column, v.key)"],
  ["idList", "inList(column, v.key) (the list is encoded for you)"],
  ["queryRows", "db.select()… or statement()"],
  ["sqlList", "inList()"],
  ["anyOf", "inList()"],
  ["rowsByParent", "a queries-file read and groupBy()"],
  ["groupByParent", "a queries-file read and groupBy()"],
  ["isTransaction", "inTransaction()"],
]);

/** Tests, test helpers and the soak's and e2e's checks inspect the database as they please. */
const isTestCode = (rel) =>
  /\.test\.ts$/.test(rel) || /(^|\/)(test|testing|bench)\//.test(rel) || /^tools\/(soak|e2e)\//.test(rel);

/** `{ module, file }` for a file of packages/modules/src/<module>/, else null. */
function moduleOf(rel) {
  const match = /^packages\/modules\/src\/([^/]+)\/(.+)$/.exec(rel);
  return match ? { module: match[1], file: match[2] } : null;
}

const isQueriesFile = (file) => /(^|\/)queries(\.ts$|\/)/.test(file);

/**
 * Where `drizzle-orm` may not be imported: the modules, the engine, flows, runtime and apps, outside
 * their queries files. A schema file declares its tables with @kasse/db's vocabulary (`entityTable`,
 * `text`, `indexWhere`, …), and everything else calls the queries.
 */
const forbidsDrizzle = (rel) =>
  /^(packages\/(modules|workflows|flows|runtime)|apps)\//.test(rel) && !isQueriesFile(rel);

export default {
  meta: {
    type: "problem",
    messages: {
      replaced: "'{{name}}' is replaced by {{by}} (docs/CONVENTIONS.md \"Data\")",
      raw: "sql.raw is for migrations and @kasse/db only: write the statement with the drizzle builder or sql`…` (values as parameters, names with sql.identifier)",
      drizzle:
        "only a queries file imports drizzle: name the statement in queries.ts and call it (schema.ts declares tables with @kasse/db's builders)",
      handle: "a module takes no database handle: queries read the ambient one (`db`, `statement`)",
      schemaExport:
        "a module's index exports no table and nothing of schema.ts (its shapes come from ./shapes): tests, migrations and `kasse check` import `@kasse/modules/{{module}}/tables`",
    },
    schema: [],
  },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join("/");
    if (rel.startsWith("packages/db/") || rel.startsWith("packages/core/") || rel.startsWith("drizzle/")) return {};
    const test = isTestCode(rel);
    const inModule = moduleOf(rel);
    const checkImport = (node) => {
      const source = node.source?.value;
      if (typeof source !== "string") return;
      if (!test && forbidsDrizzle(rel) && (source === "drizzle-orm" || source.startsWith("drizzle-orm/")))
        context.report({ node, messageId: "drizzle" });
      if (source !== "@kasse/db") return;
      for (const spec of node.specifiers ?? []) {
        const name = spec.imported?.name;
        if (!name) continue;
        if (!test && REPLACED.has(name))
          context.report({ node: spec, messageId: "replaced", data: { name, by: REPLACED.get(name) } });
        if (inModule && !test && (name === "Db" || name === "Tx")) context.report({ node: spec, messageId: "handle" });
      }
    };
    const checkIndexExport = (node) => {
      if (inModule && inModule.file === "index.ts" && /^\.\/schema$/.test(node.source?.value ?? ""))
        context.report({ node, messageId: "schemaExport", data: { module: inModule.module } });
    };
    return {
      ImportDeclaration(node) {
        checkImport(node);
        checkIndexExport(node);
      },
      ExportAllDeclaration: checkIndexExport,
      ExportNamedDeclaration(node) {
        if (node.source) checkImport(node);
        checkIndexExport(node);
      },
      // `sql.raw(…)`
      CallExpression(node) {
        const callee = node.callee;
        if (
          !test &&
          callee.type === "MemberExpression" &&
          callee.object.type === "Identifier" &&
          callee.object.name === "sql" &&
          callee.property.type === "Identifier" &&
          callee.property.name === "raw"
        )
          context.report({ node, messageId: "raw" });
      },
    };
  },
};
