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

// QWERTY keys by row; each row sits a quarter to half a key right of the one above.
const KEY_ROWS: ReadonlyArray<readonly [string, number]> = [
  ["qwertyuiop", 0],
  ["asdfghjkl", 0.25],
  ["zxcvbnm", 0.75],
];
const NEIGHBOURS = new Uint8Array(26 * 26);
{
  const at = new Map<number, { x: number; y: number }>();
  KEY_ROWS.forEach(([row, offset], y) => {
    for (let i = 0; i < row.length; i++) at.set(row.charCodeAt(i) - 97, { x: i + offset, y });
  });
  for (const [a, pa] of at) {
    for (const [b, pb] of at) {
      const dy = Math.abs(pa.y - pb.y);
      const dx = Math.abs(pa.x - pb.x);
      if (a !== b && ((dy === 0 && dx === 1) || (dy === 1 && dx <= 0.75))) NEIGHBOURS[a * 26 + b] = 1;
    }
  }
}

/** Whether two lowercase letters are neighbouring keys on a QWERTY keyboard ("s"/"d", "s"/"w", "n"/"h"). */
export function areKeyNeighbours(a: number, b: number): boolean {
  const x = a - 97;
  const y = b - 97;
  return x >= 0 && x < 26 && y >= 0 && y < 26 && NEIGHBOURS[x * 26 + y] === 1;
}

/** Cost of a slip of the finger (a neighbouring key, two letters swapped, a key pressed twice) against any other edit. */
export const SLIP_COST = 0.5;
// Computed in half edits so the rows stay integers: a slip costs 1, any other edit 2.
let slipPrev = new Int32Array(MAX_LEN + 1);
let slipCur = new Int32Array(MAX_LEN + 1);
let slipPrev2 = new Int32Array(MAX_LEN + 1);

/**
 * Optimal-string-alignment distance in which the commonest typing slips, hitting a neighbouring
 * key, swapping two adjacent letters and pressing a key twice, cost SLIP_COST instead of 1: "lynh" is a slip away from
 * "lynn", while "wong" is a full edit from "wang". Gives up early like boundedLevenshtein, returning
 * more than `max` as soon as the distance is known to exceed it.
 */
export function typingDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  // Each letter more on one side costs at least a slip (a doubled letter).
  if (Math.abs(la - lb) * SLIP_COST > max) return max + 1;
  if (la === 0) return lb > max ? max + 1 : lb;
  if (lb === 0) return la > max ? max + 1 : la;
  if (slipPrev.length < lb + 1) {
    slipPrev = new Int32Array(lb * 2 + 1);
    slipCur = new Int32Array(lb * 2 + 1);
    slipPrev2 = new Int32Array(lb * 2 + 1);
  }
  const limit = Math.floor(max * 2);
  // Each letter one word has more than the other costs at least 1 (a doubled key), so cell (i, j)
  // costs at least |j - i| and the way on from it at least |(lb - j) - (la - i)|. Only cells where
  // the two fit within the limit together can lie on a way within it: the diagonals j - i from
  // (shift - limit) / 2 rounded up to (shift + limit) / 2 rounded down, shift being lb - la: half as
  // many as the cell's own cost allows when the words are of one length. The others are not computed and read as `beyond`: no
  // way within the limit passes through them, so every cell on one gets its exact value, and a
  // distance beyond the limit still comes out beyond it.
  const shift = lb - la;
  const low = (shift - limit + 1) >> 1;
  const high = (shift + limit) >> 1;
  const beyond = limit + 1;
  for (let j = 0; j <= lb; j++) slipPrev[j] = 2 * j;
  // A row's least cost counts what its cells must still pay for the letters one word has more (as
  // above): no way through the row ends cheaper. A swap (cost 1) reaches back two rows and can
  // undercut the last row's cheapest cell, whose substitutions cost 2: the search gives up only when
  // both rows are beyond the limit.
  let lastRowMin = 0;
  for (let i = 1; i <= la; i++) {
    const from = Math.max(1, i + low);
    const to = Math.min(lb, i + high);
    slipCur[from - 1] = from === 1 ? 2 * i : beyond;
    // Cell (i, 0) is i letters deleted, with all of b still to come.
    let rowMin = from === 1 ? 2 * i + Math.abs(shift + i) : beyond;
    const ca = a.charCodeAt(i - 1);
    // Start of ca's row in NEIGHBOURS, or -1 for a character off the letter keys.
    const row = ca >= 97 && ca <= 122 ? (ca - 97) * 26 : -1;
    // A key pressed twice is a slip too: a letter that repeats the one before it, on either side
    // ("Shipppping", "Limiteed"; "Talasa" for "Talassa" read the other way).
    const drop = i > 1 && ca === a.charCodeAt(i - 2) ? 1 : 2;
    let before = from >= 2 ? b.charCodeAt(from - 2) : -1;
    for (let j = from; j <= to; j++) {
      const cb = b.charCodeAt(j - 1);
      const slip = row >= 0 && cb >= 97 && cb <= 122 && NEIGHBOURS[row + cb - 97] === 1;
      const cost = ca === cb ? 0 : slip ? 1 : 2;
      const add = cb === before ? 1 : 2;
      before = cb;
      let v = Math.min(slipPrev[j] + drop, slipCur[j - 1] + add, slipPrev[j - 1] + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, slipPrev2[j - 2] + 1);
      }
      slipCur[j] = v;
      const rest = shift - j + i;
      const atLeast = v + (rest < 0 ? -rest : rest);
      if (atLeast < rowMin) rowMin = atLeast;
    }
    // The next row reads this one's cell right of the band.
    if (to < lb) slipCur[to + 1] = beyond;
    if (rowMin > limit && lastRowMin + 1 > limit) return max + 1;
    lastRowMin = rowMin;
    const t = slipPrev2;
    slipPrev2 = slipPrev;
    slipPrev = slipCur;
    slipCur = t;
  }
  const d = slipPrev[lb] / 2;
  return d > max ? max + 1 : d;
}

/** Number of bits set in a 32-bit integer. */
export function popCount(bits: number): number {
  let x = bits - ((bits >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The set of characters a word has, as bits: a to z each its own, any other character one of six
 * more bits (characters sharing a bit only make two sets look closer).
 */
export function letterSet(word: string): number {
  let bits = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    bits |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return bits;
}

// Per letter, the letters of its neighbouring keys as a letterSet.
const NEIGHBOUR_SETS = new Int32Array(26);
for (let a = 0; a < 26; a++)
  for (let b = 0; b < 26; b++) if (NEIGHBOURS[a * 26 + b] === 1) NEIGHBOUR_SETS[a] |= 1 << b;

/** How many letters of `from` have a neighbouring key in `to` (both letterSets). */
function withNeighbourIn(from: number, to: number): number {
  let n = 0;
  for (let rest = from & 0x3ffffff; rest !== 0; rest &= rest - 1) {
    if ((NEIGHBOUR_SETS[31 - Math.clz32(rest & -rest)] as number) & to) n++;
  }
  return n;
}

/**
 * A lower bound of typingDistance from the two words' letter sets (letterSet). Each letter one word
 * has and the other lacks must be unmade, or made, by an edit of its own side (swaps and doubled
 * keys change no set), and one edit answers at most one such letter on each side. It costs only
 * SLIP_COST when it is a neighbouring key's substitution, so only for a letter with a neighbouring
 * key in the other word; every other letter's edit costs a whole one.
 */
export function typingDistanceAtLeast(setA: number, setB: number): number {
  const onlyA = setA & ~setB;
  const onlyB = setB & ~setA;
  const countA = popCount(onlyA);
  const countB = popCount(onlyB);
  const edits = Math.max(countA, countB);
  if (edits === 0) return 0;
  // Edits that can't be slips: one per letter without a neighbouring key on the other side.
  const whole = Math.max(countA - withNeighbourIn(onlyA, setB), countB - withNeighbourIn(onlyB, setA));
  return SLIP_COST * edits + (1 - SLIP_COST) * whole;
}
