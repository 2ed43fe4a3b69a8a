// The linter over the whole tree (`npm run lint`, run by .ci/run): type-aware rules are left to
// tsc (strict, noUnused*); these catch what the compiler allows.
import stylistic from "@stylistic/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "scratch/", "coverage/", "test/fixtures/", "test/browser/screenshots/"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "@stylistic": stylistic },
    rules: {
      // strings, templates (SQL), regular expressions and addresses are not broken across lines
      "@stylistic/max-len": [
        "error",
        {
          code: 120,
          tabWidth: 2,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true
        }
      ],
      eqeqeq: ["error", "smart"],
      // a leading underscore names what is left out on purpose (a rest's other fields)
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" }
      ],
      // tsc's strict mode refuses an implicit any; an explicit one marks where a library's types need it
      // (a Schema's encoded side, map style expressions)
      "@typescript-eslint/no-explicit-any": "off",
      "no-var": "error",
      "prefer-const": "error"
    }
  }
)
