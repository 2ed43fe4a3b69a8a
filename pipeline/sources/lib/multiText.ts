/** NTCIP 1203 MULTI markup (sign messages) to display text: tags dropped, line and page breaks kept as newlines. */
export const multiToText = (multi: string) =>
  multi
    .replace(/\[(nl|np)\d*\]/gi, "\n")
    .replace(/\[[^\]]*\]/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n")
