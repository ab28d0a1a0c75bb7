import { describe, expect, test } from "bun:test";
import { boundedLevenshtein, jaro, jaroWinkler, levenshtein } from "./similarity";

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
