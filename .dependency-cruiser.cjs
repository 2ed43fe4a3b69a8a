/**
 * The import rules the tree keeps (README, "Layout"), checked by dependency-cruiser in `npm test`
 * (test/unit/architecture/importRules.test.ts) and by `npm run check:imports`. Imports run down
 * the design card's list and never in a circle.
 */
const OURS = "^(api|pipeline|shared|infra|portal|bench|test)/"
/** The contexts in shared/ that both api/ and pipeline/ use; the rest of shared/ is the kernel and the stores. */
const CONTEXTS = "(routing|webhooks|sources|portal|forecast)"
/**
 * Adapter files: one per upstream format, directly in pipeline/sources/ beside the framework (Adapter.ts) and the
 * registry; helpers are in lib/.
 */
const ADAPTER = "^pipeline/sources/(?!(Adapter|registry)\\.ts$)[^/]+\\.ts$"

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module never reaches itself through its imports: a circle has no order to read or load it in.",
      from: {},
      to: { circular: true }
    },
    {
      name: "shared-uses-nothing-of-ours",
      severity: "error",
      comment:
        "shared/ is the kernel, the stores and the contexts both api/ and pipeline/ use: it imports only shared/.",
      from: { path: "^shared/" },
      to: { path: OURS, pathNot: "^shared/" }
    },
    {
      name: "kernel-and-store-use-no-context",
      severity: "error",
      comment:
        "The kernel (domain, schema, time, config, geo, …) and the stores (db, bus, cache) know no context: a context builds on them, never the other way.",
      from: { path: `^shared/(?!${CONTEXTS})` },
      to: { path: `^shared/${CONTEXTS}/` }
    },
    {
      name: "a-context-uses-its-own-folders",
      severity: "error",
      comment:
        "Inside a context, only its own folders and the kernel and stores: routing, webhooks, sources and the portal's server side do not reach into one another.",
      from: { path: `^shared/${CONTEXTS}/` },
      to: { path: `^shared/${CONTEXTS}/`, pathNot: "^shared/$1/" }
    },
    {
      name: "stages-stand-apart",
      severity: "error",
      comment:
        "A stage learns what another decided from what it publishes, never from its code: one stage's folder imports no other's.",
      from: { path: "^pipeline/stages/([^/]+)/" },
      to: { path: "^pipeline/stages/[^/]+/", pathNot: "^pipeline/stages/$1/" }
    },
    {
      name: "api-uses-shared-only",
      severity: "error",
      comment: "The API reads what the pipeline wrote through the database and shared/, never the pipeline's code.",
      from: { path: "^api/" },
      to: { path: OURS, pathNot: "^(api|shared)/" }
    },
    {
      name: "pipeline-uses-shared-only",
      severity: "error",
      comment: "The pipeline knows nothing of the API, the processes that start it or the portal.",
      from: { path: "^pipeline/" },
      to: { path: OURS, pathNot: "^(pipeline|shared)/" }
    },
    {
      name: "infra-composes",
      severity: "error",
      comment:
        "infra/ composes processes from api/, pipeline/ and shared/; it never reaches into the portal client, benches or tests.",
      from: { path: "^infra/" },
      to: { path: "^(portal|bench|test)/" }
    },
    {
      name: "portal-uses-shared-only",
      severity: "error",
      comment:
        "The browser client imports shared/ only (and the API's answer Schemas as types, erased by the bundler, so a renamed field breaks its build).",
      from: { path: "^portal/" },
      to: { path: OURS, pathNot: "^(portal|shared|api/schemas)/" }
    },
    {
      name: "portal-types-only-from-api-schemas",
      severity: "error",
      comment: "The API's answer Schemas reach the client as types only: a value import would bundle server code.",
      from: { path: "^portal/" },
      to: { path: "^api/schemas/", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "nothing-imports-the-portal",
      severity: "error",
      comment: "The server never uses the browser client; a bench may build it (portal/build.ts), as npm start does.",
      from: { path: "^(api|pipeline|shared|infra|bench)/" },
      to: { path: "^portal/", pathNot: "^portal/build\\.ts$" }
    },
    {
      name: "only-benches-build-the-portal",
      severity: "error",
      comment: "The portal's build is run by npm scripts and benches, never imported by the server.",
      from: { path: "^(api|pipeline|shared|infra)/" },
      to: { path: "^portal/build\\.ts$" }
    },
    {
      name: "benches-stand-aside",
      severity: "error",
      comment: "Benchmarks use the product; the product never uses a benchmark.",
      from: { path: "^(api|pipeline|shared|infra|portal)/" },
      to: { path: "^bench/" }
    },
    {
      name: "tests-stand-aside",
      severity: "error",
      comment: "Tests use the product; nothing but a test uses a test's support code.",
      from: { pathNot: "^test/" },
      to: { path: "^test/" }
    },
    {
      name: "no-adapter-imports-another",
      severity: "error",
      comment:
        "An adapter is one file over the shared helpers (pipeline/sources/lib/): what two adapters share belongs there.",
      from: { path: ADAPTER },
      to: { path: ADAPTER }
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo or a missing dependency.",
      from: {},
      to: { couldNotResolve: true }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|scratch)/" },
    includeOnly: "^(api|pipeline|shared|infra|portal|bench|test)/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"]
    },
    reporterOptions: { text: { highlightFocused: true } }
  }
}
