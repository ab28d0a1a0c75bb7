// Blocking keys of the screening index: 32-bit hashes of words and of their deletion variants,
// kept in sorted multimaps from a hash to vocabulary ids.

export const ID_BITS = 2 ** 21;

/** Sorted (hash, id) pairs packed in doubles: a compact multimap from a 32-bit key hash to ids. */
export interface HashMultimap {
  packed: Float64Array;
  /**
   * Where the pairs of each top-16-bit hash prefix start (65,537 entries): a lookup searches one
   * bucket of a few dozen pairs instead of the whole array, whose top levels miss the cache.
   */
  directory: Int32Array;
}

const DIRECTORY_SHIFT = 16;

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Append-only buffer of packed (hash, id) pairs; avoids a multi-million-element JS array at build time. */
export class PairBuffer {
  private data = new Float64Array(1 << 16);
  private size = 0;

  add(hash: number, id: number): void {
    if (this.size === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = hash * ID_BITS + id;
  }

  toMultimap(): HashMultimap {
    const sorted = this.data.slice(0, this.size);
    sorted.sort();
    // Variants of one key can coincide ("abab" minus an "a" and a "b", either pair): keep one.
    let size = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (size === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i] as number;
    }
    const packed = sorted.slice(0, size);
    const directory = new Int32Array((1 << (32 - DIRECTORY_SHIFT)) + 1);
    for (let i = 0; i < packed.length; i++) {
      const hash = Math.floor((packed[i] as number) / ID_BITS);
      directory[(hash >>> DIRECTORY_SHIFT) + 1]++;
    }
    for (let b = 1; b < directory.length; b++) directory[b] += directory[b - 1] as number;
    return { packed, directory };
  }
}

export function lookupMultimap(map: HashMultimap, key: string, visit: (id: number) => void): void {
  lookupHash(map, fnv1a(key), visit);
}

export function lookupHash(map: HashMultimap, h: number, visit: (id: number) => void): void {
  const lo = h * ID_BITS;
  const { packed, directory } = map;
  const bucket = h >>> DIRECTORY_SHIFT;
  let a = directory[bucket] as number;
  let b = directory[bucket + 1] as number;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((packed[mid] as number) < lo) a = mid + 1;
    else b = mid;
  }
  const hi = lo + ID_BITS;
  for (let i = a; i < packed.length; i++) {
    const v = packed[i] as number;
    if (v >= hi) break;
    visit(v - lo);
  }
}

// Words this long get a two-edit budget, so their blocking keys include two deletions.
// (Measured on the eval set: from 6 letters this doubles the index for 0.05% more recall.)
const TWO_DELETION_MIN_LENGTH = 8;

/** fnv1a of `key` without the characters at `skipA` and `skipB` (-1: none). */
function fnv1aSkipping(key: string, skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    if (i === skipA || i === skipB) continue;
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Hashes of the key and of every string one deletion away, and for long keys two deletions away
 * (symmetric deletion: two words within the edit budget share at least one variant). Hashed in
 * place rather than built as strings; a string reached twice is hashed twice, which is harmless.
 */
export function forEachDeletionHash(key: string, twoEdits: boolean, visit: (hash: number) => void): void {
  const n = key.length;
  visit(fnv1aSkipping(key, -1, -1));
  for (let i = 0; i < n; i++) {
    // Deleting either letter of a doubled pair gives the same string.
    if (i > 0 && key.charCodeAt(i) === key.charCodeAt(i - 1)) continue;
    visit(fnv1aSkipping(key, i, -1));
  }
  if (!twoEdits || n < TWO_DELETION_MIN_LENGTH) return;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) visit(fnv1aSkipping(key, i, j));
  }
}

export const HAS_DIGIT = /[0-9]/;
