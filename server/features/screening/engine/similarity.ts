// String similarity primitives on plain (already normalised) strings. They run millions of times
// per batch, so they use char codes and reusable typed buffers instead of allocating per call.

const MAX_LEN = 64;
let matchA = new Uint8Array(MAX_LEN);
let matchB = new Uint8Array(MAX_LEN);
let rowPrev = new Int32Array(MAX_LEN + 1);
let rowCur = new Int32Array(MAX_LEN + 1);
let rowPrev2 = new Int32Array(MAX_LEN + 1);

function ensureCapacity(n: number): void {
  if (n < matchA.length) return;
  const size = n * 2;
  matchA = new Uint8Array(size);
  matchB = new Uint8Array(size);
  rowPrev = new Int32Array(size + 1);
  rowCur = new Int32Array(size + 1);
  rowPrev2 = new Int32Array(size + 1);
}

/** Jaro similarity in [0, 1]. */
export function jaro(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0 && lb === 0) return 1;
  if (la === 0 || lb === 0) return 0;
  if (a === b) return 1;
  ensureCapacity(Math.max(la, lb));
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  matchA.fill(0, 0, la);
  matchB.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const ca = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (matchB[j] === 0 && b.charCodeAt(j) === ca) {
        matchA[i] = 1;
        matchB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchA[i] === 0) continue;
    while (matchB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  return (m / la + m / lb + (m - transpositions / 2) / m) / 3;
}

/** Jaro-Winkler similarity in [0, 1] (prefix scale 0.1, prefix up to 4, boost above 0.7 as Winkler defined). */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j <= 0.7) return j;
  const limit = Math.min(4, a.length, b.length);
  let prefix = 0;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return j + prefix * 0.1 * (1 - j);
}

/**
 * Optimal-string-alignment edit distance (insert, delete, substitute, swap adjacent), giving up
 * early: returns `max + 1` as soon as the distance is known to exceed `max`.
 */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0) return lb;
  if (lb === 0) return la;
  ensureCapacity(Math.max(la, lb));
  for (let j = 0; j <= lb; j++) rowPrev[j] = j;
  for (let i = 1; i <= la; i++) {
    rowCur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min(rowPrev[j] + 1, rowCur[j - 1] + 1, rowPrev[j - 1] + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, rowPrev2[j - 2] + 1);
      }
      rowCur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = rowPrev2;
    rowPrev2 = rowPrev;
    rowPrev = rowCur;
    rowCur = t;
  }
  const d = rowPrev[lb];
  return d > max ? max + 1 : d;
}

/** Unbounded optimal-string-alignment edit distance. */
export function levenshtein(a: string, b: string): number {
  return boundedLevenshtein(a, b, Math.max(a.length, b.length));
}
