/** Least absolute deviation regression with an optional prior (the forecaster's coefficients). */

// ---------------------------------------------------------------------------------------------
// Least absolute deviation by iteratively reweighted least squares

export const solve = (a: Array<Array<number>>, b: Array<number>) => {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r
    ;[m[c], m[p]] = [m[p], m[c]]
    if (Math.abs(m[c][c]) < 1e-9) m[c][c] = 1e-9
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = m[r][c] / m[c][c]
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]
    }
  }
  return m.map((row, i) => row[n] / row[i])
}

export const lad = (
  xs: ReadonlyArray<ReadonlyArray<number>>,
  ys: ReadonlyArray<number>,
  ridge = 1,
  prior: ReadonlyArray<number> = []
) => {
  const p = xs[0]?.length ?? 0
  let beta = new Array<number>(p).fill(0)
  let w = new Array<number>(ys.length).fill(1)
  for (let iter = 0; iter < 20; iter++) {
    const a = Array.from({ length: p }, () => new Array<number>(p).fill(0))
    const b = new Array<number>(p).fill(0)
    for (let i = 0; i < ys.length; i++) {
      const x = xs[i]
      const wi = w[i]
      for (let r = 0; r < p; r++) {
        const wx = wi * x[r]
        if (wx === 0) continue
        b[r] += wx * ys[i]
        for (let c = r; c < p; c++) a[r][c] += wx * x[c]
      }
    }
    for (let r = 0; r < p; r++) for (let c = 0; c < r; c++) a[r][c] = a[c][r]
    // the penalty pulls toward `prior` (zero when none): a site's own coefficients toward the pooled ones
    for (let r = prior.length > 0 ? 0 : 1; r < p; r++) {
      a[r][r] += ridge
      b[r] += ridge * (prior[r] ?? 0)
    }
    const next = solve(a, b)
    const moved = next.reduce((m, v, j) => Math.max(m, Math.abs(v - beta[j])), 0)
    beta = next
    if (moved < 1e-4) break
    w = ys.map((y, i) => 1 / Math.max(0.5, Math.abs(y - xs[i].reduce((s, x, j) => s + x * beta[j], 0))))
  }
  return beta
}

export const quantilesOf = (values: Array<number>, qs: ReadonlyArray<number>) => {
  const v = [...values].sort((a, b) => a - b)
  return qs.map((q) => (v.length === 0 ? 0 : v[Math.min(v.length - 1, Math.floor(q * v.length))]))
}
