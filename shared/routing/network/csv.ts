import { readFileSync } from "node:fs"

/** Rows of a `;`-separated file with a header line; the last column may hold `;` itself. */
export const readCsv = (path: string): Array<Record<string, string>> => {
  const [header, ...lines] = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
  const cols = header.split(";")
  return lines.map((l) => {
    const cells = l.split(";")
    return Object.fromEntries(
      cols.map((c, i) => [c, (i === cols.length - 1 ? cells.slice(i).join(";") : (cells[i] ?? "")).trim()])
    )
  })
}
