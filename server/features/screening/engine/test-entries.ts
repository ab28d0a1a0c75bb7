// Shared by the engine's rule tests: a list entry in a line, and the two expectations each rule's
// cases use (a variant fails on its entry; a near miss passes, below the default threshold).
import { expect } from "bun:test";
import { DEFAULT_THRESHOLD, type ScreeningIndex, screen } from "./screening-index";
import type { EntityType, ListEntry } from "./types";

export const entry = (
  id: string,
  name: string,
  aliases: string[] = [],
  entityType: EntityType = "entity",
): ListEntry => ({
  sourceList: "TEST LIST",
  sourceId: id,
  entityType,
  name,
  aliases,
  programs: ["TEST-PROGRAM"],
  addresses: [],
  countries: [],
});

/** The outcome of a name, and which list entry (if any) made it fail; and the rule tests' checks. */
export function expectationsOver(index: ScreeningIndex) {
  const outcome = (name: string) => {
    const result = screen(index, { name });
    return { status: result.status, score: result.bestScore, id: result.matches[0]?.entry.sourceId };
  };
  return {
    outcome,
    expectFails(name: string, id: string) {
      const got = outcome(name);
      expect({ name, status: got.status, id: got.id }).toEqual({ name, status: "failed", id });
    },
    expectPasses(name: string) {
      const got = outcome(name);
      expect({ name, status: got.status }).toEqual({ name, status: "passed" });
      expect(got.score).toBeLessThan(DEFAULT_THRESHOLD);
    },
  };
}
