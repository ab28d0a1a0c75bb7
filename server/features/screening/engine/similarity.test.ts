import { describe, expect, test } from "bun:test";
import {
  areKeyNeighbours,
  boundedLevenshtein,
  jaro,
  jaroWinkler,
  letterSet,
  levenshtein,
  SLIP_COST,
  typingDistance,
  typingDistanceAtLeast,
} from "./similarity";

describe("jaro / jaro-winkler", () => {
  // Reference values from Winkler (1990) and the usual textbook examples.
  test.each([
    ["martha", "marhta", 0.9444, 0.9611],
    ["dwayne", "duane", 0.8222, 0.84],
    ["dixon", "dicksonx", 0.7667, 0.8133],
    ["jones", "johnson", 0.7905, 0.8324],
    ["abc", "abc", 1, 1],
    ["abc", "xyz", 0, 0],
  ])("%s / %s", (a, b, j, jw) => {
    expect(jaro(a, b)).toBeCloseTo(j, 3);
    expect(jaroWinkler(a, b)).toBeCloseTo(jw, 3);
    expect(jaroWinkler(b, a)).toBeCloseTo(jw, 3);
  });

  test("empty strings", () => {
    expect(jaro("", "")).toBe(1);
    expect(jaro("", "a")).toBe(0);
    expect(jaroWinkler("a", "")).toBe(0);
  });

  test("long strings grow the scratch buffers", () => {
    const a = "x".repeat(200);
    expect(jaroWinkler(a, `${a}y`)).toBeGreaterThan(0.99);
  });
});

describe("levenshtein (optimal string alignment)", () => {
  test.each([
    ["kitten", "sitting", 3],
    ["flaw", "lawn", 2],
    ["", "abc", 3],
    ["abc", "", 3],
    ["same", "same", 0],
    ["ab", "ba", 1],
    ["ca", "abc", 3],
    ["rosneft", "rosnetf", 1],
  ])("%s -> %s = %d", (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
    expect(levenshtein(b, a)).toBe(d);
  });

  test("bounded version stops at max + 1", () => {
    expect(boundedLevenshtein("kitten", "sitting", 3)).toBe(3);
    expect(boundedLevenshtein("kitten", "sitting", 2)).toBe(3);
    expect(boundedLevenshtein("kitten", "sitting", 1)).toBe(2);
    expect(boundedLevenshtein("a", "abcdef", 2)).toBe(3);
    expect(boundedLevenshtein("abcdef", "abcdef", 0)).toBe(0);
  });
});

describe("typing slips", () => {
  const code = (ch: string): number => ch.charCodeAt(0);

  test("neighbouring keys on a QWERTY keyboard", () => {
    expect(areKeyNeighbours(code("s"), code("d"))).toBe(true);
    expect(areKeyNeighbours(code("h"), code("n"))).toBe(true);
    expect(areKeyNeighbours(code("q"), code("a"))).toBe(true);
    expect(areKeyNeighbours(code("a"), code("p"))).toBe(false);
    expect(areKeyNeighbours(code("o"), code("a"))).toBe(false);
    expect(areKeyNeighbours(code("s"), code("s"))).toBe(false);
    expect(areKeyNeighbours(code("1"), code("2"))).toBe(false);
  });

  test.each([
    ["lynh", "lynn", 0.5], // h is next to n
    ["pras", "pars", 0.5], // two letters swapped
    ["wong", "wang", 1], // o is not next to a: another name, not a slip
    ["hat", "hatum", 2], // dropped letters are full edits
    ["yieuf", "yusuf", 1], // two slips
    ["esljboza", "espinoza", 1.5], // three slips
    ["same", "same", 0],
  ])("%s / %s = %d", (a, b, d) => {
    expect(typingDistance(a, b, 4)).toBe(d);
    expect(typingDistance(b, a, 4)).toBe(d);
  });

  test("never more than the edit distance, and gives up beyond max", () => {
    for (const [a, b] of [
      ["kitten", "sitting"],
      ["rosneft", "rosnetf"],
      ["novokuibyshevsk", "novokuibishevsk"],
    ] as const) {
      expect(typingDistance(a, b, 5)).toBeLessThanOrEqual(levenshtein(a, b));
    }
    expect(typingDistance("abcdef", "uvwxyz", 1)).toBeGreaterThan(1);
    expect(typingDistance("a", "abcdef", 2)).toBeGreaterThan(2);
  });

  test("a tight max does not change a distance within it, swaps included", () => {
    // A neighbour slip then a swap: the row between them costs more than the total.
    expect(typingDistance("conapny", "company", 1)).toBe(1);
    expect(typingDistance("company", "conapny", 1)).toBe(1);
    const letters = "abcdefghijklmnopqrstuvwxyz";
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const mutate = (word: string) => {
      const chars = [...word];
      for (let k = 0; k < 3; k++) {
        const i = Math.floor(random() * chars.length);
        const r = random();
        if (r < 0.4 && i + 1 < chars.length)
          [chars[i], chars[i + 1]] = [chars[i + 1] as string, chars[i] as string];
        else if (r < 0.8) chars[i] = letters[Math.floor(random() * 26)] as string;
        else chars.splice(i, 1);
      }
      return chars.join("");
    };
    for (let n = 0; n < 2000; n++) {
      const a = Array.from(
        { length: 4 + Math.floor(random() * 8) },
        () => letters[Math.floor(random() * 26)],
      ).join("");
      const b = mutate(a);
      const exact = typingDistance(a, b, 20);
      for (const max of [0.5, 1, 1.5, 2, 3]) {
        expect([a, b, max, typingDistance(a, b, max)]).toEqual([a, b, max, exact <= max ? exact : max + 1]);
      }
    }
  });
});

/** typingDistance by the whole table, no band and no early exit: what the banded one must equal (edge cells as the real one: every letter a whole edit). */
function typingDistanceByFullTable(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        (rows[i] as number[])[j] = i + j;
        continue;
      }
      const ca = a.charCodeAt(i - 1);
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : areKeyNeighbours(ca, cb) ? SLIP_COST : 1;
      // A letter that repeats the one before it (a key pressed twice) is a slip to leave out or add.
      const drop = i > 1 && ca === a.charCodeAt(i - 2) ? SLIP_COST : 1;
      const add = j > 1 && cb === b.charCodeAt(j - 2) ? SLIP_COST : 1;
      let v = Math.min(
        (rows[i - 1]?.[j] as number) + drop,
        (rows[i]?.[j - 1] as number) + add,
        (rows[i - 1]?.[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        v = Math.min(v, (rows[i - 2]?.[j - 2] as number) + SLIP_COST);
      (rows[i] as number[])[j] = v;
    }
  }
  return rows[a.length]?.[b.length] as number;
}

describe("typingDistance computes only the band within its limit", () => {
  test("it equals the whole table's distance, or max + 1 beyond it, for related and unrelated words", () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // Few letters, neighbours among them, so swaps, slips and repeats are common.
    const letters = "asdqwezxmn";
    const word = (length: number) =>
      Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join("");
    let withinLimit = 0;
    for (let n = 0; n < 20_000; n++) {
      const a = word(Math.floor(random() * 14));
      const b = random() < 0.5 ? word(Math.floor(random() * 14)) : a.slice(0, a.length - 1) + word(2);
      const exact = typingDistanceByFullTable(a, b);
      for (const max of [0.5, 1, 1.5, 2, 3, 4]) {
        const expected = exact <= max ? exact : max + 1;
        if (exact <= max && exact > 0) withinLimit++;
        expect([a, b, max, typingDistance(a, b, max)]).toEqual([a, b, max, expected]);
      }
    }
    expect(withinLimit).toBeGreaterThan(5_000);
  });
});

describe("typingDistanceAtLeast: a lower bound read from letter sets", () => {
  test.each([
    ["muhajmad", "abdul", 2], // m (no neighbour in "abdul") and l (none in "muhajmad") are whole edits
    ["kdsk", "aaaa", 2.5], // k, d, s to unmake: only s has a neighbouring key (a) in "aaaa"
    ["lynh", "lynn", 0.5], // a neighbouring key
    ["talasa", "talassa", 0], // a key pressed twice changes no letter set
    ["marvel", "mrvael", 0], // letters moved
    ["wong", "wang", 1], // o/a are not neighbours
  ])("%s / %s >= %d", (a, b, bound) => {
    expect(typingDistanceAtLeast(letterSet(a), letterSet(b))).toBe(bound);
    expect(typingDistance(a, b, 8)).toBeGreaterThanOrEqual(bound);
  });

  test("never above typingDistance, on random words of a few letters", () => {
    // Few letters, so the words share many and slips are common: where a wrong bound would show.
    let seed = 7;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const word = (): string =>
      Array.from({ length: 1 + next(9) }, () => "asdfqwezx-1"[next(11)] as string).join("");
    let tight = 0;
    for (let k = 0; k < 20_000; k++) {
      const a = word();
      const b = word();
      const bound = typingDistanceAtLeast(letterSet(a), letterSet(b));
      const distance = typingDistance(a, b, 20);
      expect(bound).toBeLessThanOrEqual(distance);
      if (bound > 0 && bound === distance) tight++;
    }
    expect(tight).toBeGreaterThan(100);
  });
});
