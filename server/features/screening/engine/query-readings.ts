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

/** Shortest run-together word worth splitting: shorter ones are mostly single words. */
const MIN_JOINED_WORD = 10;
/** Shortest part a run-together word splits into, unless the part is a legal form ("JSC"). */
const MIN_JOINED_PART = 4;

/**
 * A long word that is not on the lists split into the fewest words that are ("JSCARGUMENT" →
 * "JSC ARGUMENT", "alexandervyacheslavovichzakharov" → three names), or undefined.
 */
function splitJoined(
  word: string,
  isListWord: (w: string) => boolean,
  isFormWord: (w: string) => boolean,
): string[] | undefined {
  const n = word.length;
  // parts[i]: fewest words the first i letters split into; from[i]: where the last one starts.
  const parts = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(n + 1).fill(-1);
  parts[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - 24); start < end; start++) {
      if (!Number.isFinite(parts[start] as number)) continue;
      const piece = word.slice(start, end);
      const ok = piece.length >= MIN_JOINED_PART ? isListWord(piece) : piece.length >= 3 && isFormWord(piece);
      if (ok && (parts[start] as number) + 1 < (parts[end] as number)) {
        parts[end] = (parts[start] as number) + 1;
        from[end] = start;
      }
    }
  }
  if (!Number.isFinite(parts[n] as number) || (parts[n] as number) < 2) return undefined;
  const out: string[] = [];
  for (let end = n; end > 0; end = from[end] as number) out.unshift(word.slice(from[end] as number, end));
  return out;
}

function joinedReading(
  name: string,
  isListWord: (w: string) => boolean,
  isFormWord: (w: string) => boolean,
): LatinReading | undefined {
  let changed = false;
  const text = name
    .split(/\s+/)
    .map((word) => {
      const lower = word.toLowerCase();
      if (lower.length < MIN_JOINED_WORD || !/^[a-z]+$/.test(lower) || isListWord(lower)) return word;
      const split = splitJoined(lower, isListWord, isFormWord);
      if (split === undefined) return word;
      changed = true;
      return split.join(" ");
    })
    .join(" ");
  return changed ? { text, label: "joined words split" } : undefined;
}

/** Whether a name may have readings other than as written (cheap, needs no index). */
export function mayHaveReadings(name: string): boolean {
  return (
    /[A-Za-z]{10}/.test(name) ||
    otherScriptOf(name) !== undefined ||
    /\p{Ll}{2}\p{Lu}\p{Ll}/u.test(name) ||
    /\p{L}[013457@$8]|[013457@$8]\p{L}/u.test(name)
  );
}

/** The readings of a name besides the name as written; empty for most names. */
export function queryReadings(
  name: string,
  isListWord: (w: string) => boolean = () => false,
  isFormWord: (w: string) => boolean = () => false,
): LatinReading[] {
  const out = latinReadings(name);
  if (out.length > 0) return out;
  const digits = digitReading(name);
  const base = digits?.text ?? name;
  const camel = camelReading(base);
  if (digits) out.push(digits);
  if (camel) out.push({ text: camel.text, label: digits ? `${digits.label}, ${camel.label}` : camel.label });
  const joined = joinedReading(camel?.text ?? base, isListWord, isFormWord);
  if (joined) {
    const label = [digits?.label, camel?.label !== joined.label ? camel?.label : undefined, joined.label];
    // Split words are guesses ("Brightstar" as "bright star"): they must be on the name as they are.
    out.push({ text: joined.text, label: label.filter((l) => l !== undefined).join(", "), exactWords: true });
  }
  return out;
}
