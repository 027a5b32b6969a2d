// Whether a user function may read its n-th argument, from its declared parameters: lets the hot path skip building an
// argument (a web Request costs more than the rest of a sign-in) that the function cannot read. Errs towards "yes".

const memo = new WeakMap<(...args: never[]) => unknown, number>()

/** The text between a function's parameter parentheses (or the lone arrow parameter), or undefined when unsure. */
function parameterText(source: string): string | undefined {
  let s = source.trimStart()
  if (s.startsWith("async")) s = s.slice(5).trimStart()
  const arrowParam = /^([A-Za-z_$][\w$]*)\s*=>/.exec(s)
  if (arrowParam) return arrowParam[1]
  const open = s.indexOf("(")
  if (open === -1) return undefined
  let depth = 0
  let quote: string | undefined
  for (let i = open; i < s.length; i++) {
    const c = s[i]!
    if (quote) {
      if (c === "\\") i++
      else if (c === quote) quote = undefined
      continue
    }
    if (c === '"' || c === "'" || c === "`") quote = c
    else if (c === "(" || c === "[" || c === "{") depth++
    else if (c === ")" || c === "]" || c === "}") {
      depth--
      if (depth === 0) return c === ")" ? s.slice(open + 1, i) : undefined
    }
  }
  return undefined
}

/** How many parameters a function declares (a rest parameter counts as unbounded), or Infinity when unsure. */
export function declaredParameters(fn: (...args: never[]) => unknown): number {
  let count = memo.get(fn)
  if (count !== undefined) return count
  const source = Function.prototype.toString.call(fn)
  // Native and bound functions hide their parameters.
  const text = source.includes("[native code]") ? undefined : parameterText(source)
  if (text === undefined || text.includes("...")) count = Infinity
  else if (text.trim() === "") count = 0
  else {
    count = 1
    let depth = 0
    let quote: string | undefined
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!
      if (quote) {
        if (c === "\\") i++
        else if (c === quote) quote = undefined
      } else if (c === '"' || c === "'" || c === "`") quote = c
      else if (c === "(" || c === "[" || c === "{") depth++
      else if (c === ")" || c === "]" || c === "}") depth--
      else if (c === "," && depth === 0 && text.slice(i + 1).trim() !== "") count++
    }
  }
  memo.set(fn, count)
  return count
}
