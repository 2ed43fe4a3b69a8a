import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { adapters } from "../../../pipeline/sources/registry.js"

const doc = readFileSync(fileURLToPath(new URL("../../../docs/ADAPTERS.md", import.meta.url)), "utf8")

describe("docs/ADAPTERS.md", () => {
  it("has a field-by-field mapping table, with what is dropped, for every registered adapter", () => {
    const sections = doc.split(/\n(?=#{3,4} `)/)
    for (const id of adapters.keys()) {
      const section = sections.find((s) => s.startsWith(`### \`${id}\``) || s.startsWith(`#### \`${id}\``))
      expect(section, `no mapping section for ${id}`).toBeDefined()
      expect(section!, `${id}: no table`).toMatch(/\n\|---\|---\|\n/)
      expect(section!, `${id}: no "dropped" row`).toMatch(/\n\| dropped \|/)
    }
  })
})
