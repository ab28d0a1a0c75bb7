// Other readings of a screened name, each screened besides the name as written: its Latin forms
// when it is written in another script (transliterate.ts), and the name with its evasions undone
// (words run together, digits standing for letters).

import { type LatinReading, latinReadings, otherScriptOf } from "./transliterate";

export type { LatinReading as QueryReading } from "./transliterate";

/** Digits typed for the letters they look like ("R0SNEFT", "1RAN"). */
const DIGIT_LETTERS: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "@": "a",
  $: "s",
};
/** A word mixing letters and look-alike digits: at least two letters and one digit. */
const DIGIT_WORD_RE = /^(?=(?:.*\p{L}){2})(?=.*[013457@$8])[\p{L}013457@$8]+$/u;

function digitReading(name: string): LatinReading | undefined {
  let changed = false;
  const text = name
    .split(/(\s+)/)
    .map((word) => {
      if (!DIGIT_WORD_RE.test(word)) return word;
      changed = true;
      return word.replace(/[013457@$8]/g, (d) => DIGIT_LETTERS[d] as string);
    })
    .join("");
  return changed ? { text, label: "digits read as letters" } : undefined;
}

/** Words run together with capitals marking the joins ("SergeiLavrov", "AlQaida"). */
function camelReading(name: string): LatinReading | undefined {
  // Two letters at least on the right, so "GmbH" stays one word.
  const text = name.replace(/(\p{Ll}{2})(\p{Lu}\p{Ll})/gu, "$1 $2");
  return text !== name ? { text, label: "joined words split" } : undefined;
}

/** Whether a name may have readings other than as written (cheap, needs no index). */
export function mayHaveReadings(name: string): boolean {
  return (
    otherScriptOf(name) !== undefined ||
    /\p{Ll}{2}\p{Lu}\p{Ll}/u.test(name) ||
    /\p{L}[013457@$8]|[013457@$8]\p{L}/u.test(name)
  );
}

/** The readings of a name besides the name as written; empty for most names. */
export function queryReadings(name: string): LatinReading[] {
  const out = latinReadings(name);
  if (out.length > 0) return out;
  const digits = digitReading(name);
  const base = digits?.text ?? name;
  const camel = camelReading(base);
  if (digits) out.push(digits);
  if (camel) out.push({ text: camel.text, label: digits ? `${digits.label}, ${camel.label}` : camel.label });
  return out;
}
