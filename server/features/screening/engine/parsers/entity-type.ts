import { normalizeName } from "../normalize";
import type { EntityType } from "../types";

/**
 * Best guess of entity vs individual for lists that do not say (BIS DPL, some CSL sources): a legal
 * form, a business word, a digit or a single word means an organisation; two to five plain words a
 * person. Only used to label results; matching does not depend on it.
 */
export function guessEntityType(name: string): EntityType {
  const { tokens, legalForms } = normalizeName(name);
  if (legalForms.length > 0) return "entity";
  if (tokens.some((t) => t.kind === "generic" || t.kind === "industry" || t.kind === "number"))
    return "entity";
  const plain = tokens.filter((t) => t.kind !== "particle").length;
  return plain >= 2 && plain <= 5 ? "individual" : "entity";
}
