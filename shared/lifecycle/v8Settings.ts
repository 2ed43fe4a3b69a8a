/*
 * What the V8 settings of a role share: a whole-number variable read with its role's default,
 * and the rule that a flag already given (the process's own flags, NODE_OPTIONS) is left as given.
 */

/** `name` as a whole number from 0 to `max`; unset or blank, `fallback`; anything else refused, naming the variable. */
export const wholeNumberSetting = (
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max: number,
  unit?: string
): number => {
  const raw = env[name]
  const n = raw === undefined || raw.trim() === "" ? fallback : Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`${name} must be a whole number${unit ? ` of ${unit}` : ""} from 0 to ${max}, got "${raw}"`)
  return n
}

/** Whether a V8 flag is already among the process's own flags or NODE_OPTIONS (then it is left as given). */
export const flagGiven = (flag: RegExp, env: NodeJS.ProcessEnv, execArgv: ReadonlyArray<string>) =>
  [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].some((a) => flag.test(a))
