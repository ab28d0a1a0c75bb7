import { describe, expect, test } from "bun:test";
import { unwrapRing } from "./antimeridian";

describe("unwrapRing", () => {
  test("a ring crossing the antimeridian eastwards continues past 180 instead of jumping back", () => {
    // Part of Chukotka: 178°E → 179.9°E → -179.5° (= 180.5°E) → -178° (= 182°E).
    const ring = [
      [178, 65],
      [179.9, 66],
      [-179.5, 66],
      [-178, 65],
      [178, 65],
    ];
    expect(unwrapRing(ring)).toEqual([
      [178, 65],
      [179.9, 66],
      [180.5, 66],
      [182, 65],
      [178, 65],
    ]);
  });

  test("westwards as well (Fiji seen from the west)", () => {
    expect(
      unwrapRing([
        [-179, -16],
        [179, -16.5],
        [-179.5, -17],
        [-179, -16],
      ]),
    ).toEqual([
      [-179, -16],
      [-181, -16.5],
      [-179.5, -17],
      [-179, -16],
    ]);
  });

  test("rings away from the antimeridian are left exactly as they are", () => {
    const germany = [
      [6, 51],
      [15, 51],
      [15, 54],
      [6, 51],
    ];
    expect(unwrapRing(germany)).toEqual(germany);
  });
});
