/** A Postgres WAL position ("16/B374D848") as a number of bytes; undefined for anything else. */
export const lsnOf = (text: string | null | undefined): bigint | undefined => {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text ?? "")
  return m ? (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`) : undefined
}
