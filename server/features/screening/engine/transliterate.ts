// Latin readings of names written in other scripts, the way the lists spell them. Cyrillic and
// Greek are folded by normalize.ts itself; every other script gets one or more readings here, each
// labelled with the script and the system used, so a hit can say which reading matched
// ("Arabic → Latin: VLADIMIR PUTIN"). The lists romanise names in several ways (Korean names in
// Revised Romanization and McCune–Reischauer, Chinese in pinyin and Wade–Giles, Arabic with or
// without the vowels the script leaves out), so a script may give several readings; screening keeps
// the best-scoring one.
//
// any-ascii (ISC) transliterates most scripts (Indic, Armenian, Georgian, Thai, Khmer, Burmese,
// kana, Hangul, Han as pinyin); hanja (MIT) gives the Korean reading of Chinese characters. Abjads
// (Arabic, Persian, Urdu, Hebrew) are read with the table below, since a character-by-character
// transliteration drops the vowels those scripts write as consonant letters.

import anyAscii from "any-ascii";
// The named export, not the default object: bundlers disagree on a CommonJS default's shape.
import { translate as hanjaToHangul } from "hanja/lib/translate";
import {
  HANGUL_FINAL,
  HANGUL_INITIAL_MR,
  HANGUL_INITIAL_RR,
  HANGUL_VOWEL_MR,
  HANGUL_VOWEL_RR,
  KOREAN_SURNAMES,
} from "./hangul-tables";

/** One Latin reading of a name in another script. */
export interface LatinReading {
  /** The name in Latin letters, as the lists would write it. */
  text: string;
  /** "Arabic → Latin", "Korean → Latin (McCune–Reischauer)", … */
  label: string;
  /** The reading's hits count only on list names bearing each of its words as written. */
  exactWords?: boolean;
}

/** Unicode ranges of scripts the readings cover, with the script's English name. */
const SCRIPTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/, "Arabic"],
  [/[\u0590-\u05ff\ufb1d-\ufb4f]/, "Hebrew"],
  [/[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/, "Korean"],
  [/[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/, "Japanese"],
  [/[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]/, "Chinese"],
  [/[\u0900-\u097f]/, "Devanagari"],
  [/[\u0980-\u09ff]/, "Bengali"],
  [/[\u0a00-\u0a7f]/, "Gurmukhi"],
  [/[\u0a80-\u0aff]/, "Gujarati"],
  [/[\u0b00-\u0b7f]/, "Odia"],
  [/[\u0b80-\u0bff]/, "Tamil"],
  [/[\u0c00-\u0c7f]/, "Telugu"],
  [/[\u0c80-\u0cff]/, "Kannada"],
  [/[\u0d00-\u0d7f]/, "Malayalam"],
  [/[\u0d80-\u0dff]/, "Sinhala"],
  [/[\u0e00-\u0e7f]/, "Thai"],
  [/[\u0e80-\u0eff]/, "Lao"],
  [/[\u0f00-\u0fff]/, "Tibetan"],
  [/[\u1000-\u109f]/, "Burmese"],
  [/[\u10a0-\u10ff\u1c90-\u1cbf]/, "Georgian"],
  [/[\u0530-\u058f]/, "Armenian"],
  [/[\u1200-\u139f]/, "Ethiopic"],
  [/[\u1780-\u17ff]/, "Khmer"],
  [/[\u1800-\u18af]/, "Mongolian"],
  [/[\u0700-\u074f]/, "Syriac"],
  [/[\u0780-\u07bf]/, "Thaana"],
];

/** Letters normalize.ts reads itself: Latin (with diacritics), Cyrillic, Greek. */
const OTHER_SCRIPT_RE =
  /[^\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Common}\p{Script=Inherited}]/u;

/** The script of the first letter normalize.ts cannot read, or undefined when there is none. */
export function otherScriptOf(name: string): string | undefined {
  const m = OTHER_SCRIPT_RE.exec(name);
  if (m === null) return undefined;
  const ch = m[0];
  for (const [re, script] of SCRIPTS) if (re.test(ch)) return script;
  return "Unicode";
}

// ---------------------------------------------------------------------------------------------
// Abjads: Arabic (with Persian and Urdu letters) and Hebrew. Each letter has a plain reading and,
// where names borrowed from other languages are written differently, a second one (Arabic has no
// p or v: "بوتين" is Putin, "فلاديمير" Vladimir). Vowel letters (و ي / ו י) are vowels between
// consonants and glides at the start of a word or before a vowel.

interface AbjadLetter {
  plain: string;
  foreign?: string;
}

const ARABIC: Record<string, AbjadLetter> = {
  ا: { plain: "a" },
  آ: { plain: "a" },
  أ: { plain: "a" },
  إ: { plain: "i" },
  ٱ: { plain: "a" },
  ء: { plain: "" },
  ب: { plain: "b", foreign: "p" },
  پ: { plain: "p" },
  ت: { plain: "t" },
  ٹ: { plain: "t" },
  ث: { plain: "th", foreign: "s" },
  ج: { plain: "j", foreign: "g" },
  چ: { plain: "ch" },
  ح: { plain: "h" },
  خ: { plain: "kh" },
  د: { plain: "d" },
  ڈ: { plain: "d" },
  ذ: { plain: "dh", foreign: "z" },
  ر: { plain: "r" },
  ڑ: { plain: "r" },
  ز: { plain: "z" },
  ژ: { plain: "zh" },
  س: { plain: "s" },
  ش: { plain: "sh" },
  ص: { plain: "s" },
  ض: { plain: "d" },
  ط: { plain: "t" },
  ظ: { plain: "z" },
  ع: { plain: "" },
  غ: { plain: "gh" },
  ف: { plain: "f", foreign: "v" },
  ڤ: { plain: "v" },
  ق: { plain: "q" },
  ك: { plain: "k" },
  ک: { plain: "k" },
  گ: { plain: "g" },
  ل: { plain: "l" },
  م: { plain: "m" },
  ن: { plain: "n" },
  ں: { plain: "n" },
  ه: { plain: "h" },
  ھ: { plain: "h" },
  ۀ: { plain: "e" },
  ة: { plain: "a" },
  ى: { plain: "a" },
  ئ: { plain: "" },
  ؤ: { plain: "" },
};
const ARABIC_W = new Set(["و"]);
const ARABIC_Y = new Set(["ي", "ی", "ے", "ې"]);

const HEBREW: Record<string, AbjadLetter> = {
  א: { plain: "a" },
  ב: { plain: "b", foreign: "v" },
  ג: { plain: "g" },
  ד: { plain: "d" },
  ה: { plain: "h" },
  ז: { plain: "z" },
  ח: { plain: "kh" },
  ט: { plain: "t" },
  כ: { plain: "k", foreign: "kh" },
  ך: { plain: "kh" },
  ל: { plain: "l" },
  מ: { plain: "m" },
  ם: { plain: "m" },
  נ: { plain: "n" },
  ן: { plain: "n" },
  ס: { plain: "s" },
  ע: { plain: "" },
  פ: { plain: "p", foreign: "f" },
  ף: { plain: "f" },
  צ: { plain: "ts" },
  ץ: { plain: "ts" },
  ק: { plain: "k" },
  ר: { plain: "r" },
  ש: { plain: "sh" },
  ת: { plain: "t" },
};
const HEBREW_W = new Set(["ו"]);
const HEBREW_Y = new Set(["י"]);

function readAbjadWord(
  word: string,
  table: Record<string, AbjadLetter>,
  w: Set<string>,
  y: Set<string>,
  foreign: boolean,
  hebrew: boolean,
): string {
  // Points (harakat, niqqud) and tatweel carry no letters here.
  const letters = [...word.replace(/[\u0640\u064b-\u065f\u0670\u05b0-\u05c7]/g, "")];
  let out = "";
  for (let i = 0; i < letters.length; i++) {
    const ch = letters[i] as string;
    const next = letters[i + 1];
    const first = i === 0;
    const nextIsVowelLetter =
      next !== undefined && (next === "ا" || next === "آ" || next === "א" || w.has(next) || y.has(next));
    if (w.has(ch)) {
      // Doubled vav is "v" in Hebrew; a lone one starting a word is a consonant.
      if (hebrew && next !== undefined && w.has(next)) {
        out += "v";
        i++;
      } else if (first || (nextIsVowelLetter && !(next !== undefined && y.has(next))))
        out += hebrew ? "v" : "w";
      else out += "u";
      continue;
    }
    if (y.has(ch)) {
      if (first || (next !== undefined && nextIsVowelLetter && !y.has(next))) out += "y";
      else if (next === undefined && ch === "ے") out += "e";
      else out += "i";
      continue;
    }
    const letter = table[ch];
    if (letter === undefined) {
      out += anyAscii(ch).toLowerCase();
      continue;
    }
    // A word-final heh is the "a"/"e" ending of Persian, Urdu and Hebrew names (Fatemeh, Moshe).
    if ((ch === "ه" || ch === "ה") && next === undefined && i > 1) {
      out += hebrew ? "e" : "a";
      continue;
    }
    // Alef inside a word is a long a; at the start of a Hebrew word it only carries the vowel.
    if (ch === "א" && first) {
      const after = next;
      out += after !== undefined && (w.has(after) || y.has(after)) ? "" : "a";
      continue;
    }
    out += foreign && letter.foreign !== undefined ? letter.foreign : letter.plain;
  }
  return out;
}

/** The Arabic article written together with its noun: "الحسن" → "al-hasan". */
function splitArticle(word: string): string[] {
  if (word.length > 3 && word.startsWith("ال")) return ["ال", word.slice(2)];
  return [word];
}

function abjadReadings(name: string, script: "Arabic" | "Hebrew"): LatinReading[] {
  const hebrew = script === "Hebrew";
  const table = hebrew ? HEBREW : ARABIC;
  const w = hebrew ? HEBREW_W : ARABIC_W;
  const y = hebrew ? HEBREW_Y : ARABIC_Y;
  const words = name.split(/[\s\u200c\u200f\u200e]+/).filter((x) => x !== "");
  const read = (foreign: boolean): string =>
    words
      .map((word) => {
        if (hebrew) return readAbjadWord(word, table, w, y, foreign, true);
        const parts = splitArticle(word);
        if (parts.length === 2) return `al-${readAbjadWord(parts[1] as string, table, w, y, foreign, false)}`;
        return readAbjadWord(word, table, w, y, foreign, false);
      })
      .join(" ");
  const label = hebrew ? "Hebrew → Latin" : `${arabicVariant(name)} → Latin`;
  const plain = read(false);
  const loan = read(true);
  const out: LatinReading[] = [{ text: plain, label }];
  if (loan !== plain) out.push({ text: loan, label: `${label} (as a foreign name)` });
  return out;
}

/** Persian and Urdu write the Arabic script with letters of their own. */
function arabicVariant(name: string): string {
  if (/[ٹڈڑںھے]/.test(name)) return "Urdu";
  if (/[پچژگکی]/.test(name)) return "Persian";
  return "Arabic";
}

// ---------------------------------------------------------------------------------------------
// Hangul, decomposed algorithmically (every syllable is initial + vowel + optional final).

// The jamo tables and customary surname spellings are in hangul-tables.ts.

interface Syllable {
  initial: number;
  vowel: number;
  final: number;
  char: string;
}

function syllablesOf(word: string): Syllable[] | undefined {
  const out: Syllable[] = [];
  for (const char of word) {
    const code = char.codePointAt(0) as number;
    if (code < 0xac00 || code > 0xd7a3) return undefined;
    const s = code - 0xac00;
    out.push({ initial: Math.floor(s / 588), vowel: Math.floor((s % 588) / 28), final: s % 28, char });
  }
  return out;
}

function romaniseSyllable(s: Syllable, system: "rr" | "mr"): string {
  const initials = system === "rr" ? HANGUL_INITIAL_RR : HANGUL_INITIAL_MR;
  const vowels = system === "rr" ? HANGUL_VOWEL_RR : HANGUL_VOWEL_MR;
  return (initials[s.initial] as string) + (vowels[s.vowel] as string) + (HANGUL_FINAL[s.final] as string);
}

function northSyllable(s: Syllable): string {
  return (
    (HANGUL_INITIAL_RR[s.initial] as string) +
    (HANGUL_VOWEL_MR[s.vowel] as string) +
    (HANGUL_FINAL[s.final] as string)
  );
}

/**
 * A foreign word in Hangul ("블라디미르" Vladimir): the vowel ㅡ Korean inserts after a consonant
 * that had none is dropped, and ㄹ doubled across syllables is one l.
 */
function romaniseLoanword(syllables: readonly Syllable[]): string {
  let out = "";
  for (let i = 0; i < syllables.length; i++) {
    const s = syllables[i] as Syllable;
    const prevFinalL = i > 0 && (syllables[i - 1] as Syllable).final === 8;
    let initial = HANGUL_INITIAL_RR[s.initial] as string;
    if (s.initial === 5) initial = prevFinalL ? "" : "r";
    const vowel = s.vowel === 18 && s.final !== 21 ? "" : (HANGUL_VOWEL_RR[s.vowel] as string);
    out += initial + vowel + (HANGUL_FINAL[s.final] as string);
  }
  return out;
}

function koreanReadings(name: string, label = "Korean → Latin"): LatinReading[] {
  const words = name.split(/[\s·・.,]+/).filter((x) => x !== "");
  const parsed = words.map(syllablesOf);
  if (parsed.some((p) => p === undefined)) {
    return [{ text: anyAscii(name).toLowerCase(), label }];
  }
  const sylls = parsed as Syllable[][];
  const rr = sylls.map((w) => w.map((s) => romaniseSyllable(s, "rr")).join("")).join(" ");
  const out: LatinReading[] = [];
  // A Korean personal name: a one-syllable surname and a two-syllable given name ("김정은").
  const personal = sylls.length <= 2 && sylls.every((w) => w.length <= 4) && sylls.flat().length <= 4;
  if (personal) {
    const flat = sylls.flat();
    const [surname, ...given] = flat.length >= 2 ? flat : [];
    if (surname !== undefined) {
      const mr = `${KOREAN_SURNAMES[surname.char] ?? romaniseSyllable(surname, "mr")} ${given.map((s) => romaniseSyllable(s, "mr")).join(" ")}`;
      const rrName = `${romaniseSyllable(surname, "rr")} ${given.map((s) => romaniseSyllable(s, "rr")).join("")}`;
      // North Korea's own spelling, which the lists mostly use: RR's consonants, MR's vowels
      // ("Kim Jong Un").
      const north = `${KOREAN_SURNAMES[surname.char] ?? romaniseSyllable(surname, "mr")} ${given.map((s) => northSyllable(s)).join(" ")}`;
      out.push({ text: mr, label: `${label} (McCune–Reischauer)` });
      out.push({ text: north, label: `${label} (as North Korea romanises)` });
      out.push({ text: rrName, label: `${label} (Revised Romanization)` });
      return dedupe(out);
    }
  }
  const loan = sylls.map(romaniseLoanword).join(" ");
  out.push({ text: rr, label: `${label} (Revised Romanization)` });
  if (loan !== rr) out.push({ text: loan, label: `${label} (as a foreign name)` });
  return dedupe(out);
}

// ---------------------------------------------------------------------------------------------
// Chinese characters: pinyin, Wade–Giles (older lists and Taiwan), and the Korean reading.

const WADE_GILES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^zh(?=i$)/, "ch"],
  [/^zhi$/, "chih"],
  [/^chi$/, "chih"],
  [/^shi$/, "shih"],
  [/^ri$/, "jih"],
  [/^zi$/, "tzu"],
  [/^ci$/, "tzu"],
  [/^si$/, "ssu"],
  [/^zh/, "ch"],
  [/^ch/, "ch"],
  [/^x/, "hs"],
  [/^q/, "ch"],
  [/^j/, "ch"],
  [/^z/, "ts"],
  [/^c/, "ts"],
  [/^r/, "j"],
  [/^b/, "p"],
  [/^d/, "t"],
  [/^g/, "k"],
  [/ong$/, "ung"],
  [/ian$/, "ien"],
  [/^you$/, "yu"],
  [/ui$/, "uei"],
  [/iu$/, "iu"],
  [/^ye$/, "yeh"],
  [/ie$/, "ieh"],
  [/^yan$/, "yen"],
];

function wadeGiles(syllable: string): string {
  let s = syllable;
  let initialDone = false;
  for (const [re, out] of WADE_GILES) {
    if (re.source.startsWith("^") && !re.source.endsWith("$")) {
      if (initialDone || !re.test(s)) continue;
      s = s.replace(re, out);
      initialDone = true;
    } else if (re.test(s)) {
      s = s.replace(re, out);
      if (re.source.endsWith("$") && re.source.startsWith("^")) return s;
    }
  }
  return s;
}

/** Pinyin syllables of a run of Han characters, one per character. */
function pinyinSyllables(han: string): string[] {
  return [...han].map((ch) => anyAscii(ch).toLowerCase()).filter((s) => s !== "");
}

function chineseReadings(name: string): LatinReading[] {
  const words = name.split(/[\s·・.,]+/).filter((x) => x !== "");
  const out: LatinReading[] = [];
  const syllables = words.map(pinyinSyllables);
  const personal =
    words.length === 1 && syllables[0] !== undefined && syllables[0].length >= 2 && syllables[0].length <= 4;
  if (personal) {
    const [surname, ...given] = syllables[0] as string[];
    out.push({ text: `${surname} ${given.join("")}`, label: "Chinese → Latin (pinyin)" });
    out.push({
      text: `${wadeGiles(surname as string)} ${given.map(wadeGiles).join("-")}`,
      label: "Chinese → Latin (Wade–Giles)",
    });
    // The same characters read as a Korean name (金正恩 → 김정은 → Kim Jong Un). 金 as a surname is 김.
    const chars = [...(words[0] as string)];
    const first = chars[0] === "金" ? "김" : hanjaToHangul(chars[0] as string, "SUBSTITUTION");
    const hangul = first + hanjaToHangul(chars.slice(1).join(""), "SUBSTITUTION");
    if (syllablesOf(hangul) !== undefined) {
      for (const r of koreanReadings(hangul, "Chinese characters → Korean reading → Latin")) {
        if (!r.label.includes("foreign") && !r.label.endsWith("Latin (Revised Romanization)")) out.push(r);
        else if (r.label.endsWith("(Revised Romanization)") && r.text.includes(" ")) out.push(r);
      }
    }
  } else {
    out.push({ text: syllables.map((s) => s.join(" ")).join(" "), label: "Chinese → Latin (pinyin)" });
  }
  return dedupe(out);
}

// ---------------------------------------------------------------------------------------------
// Kana: any-ascii's Hepburn, then the foreign-name reading (ウラジーミル・プーチン is Vladimir
// Putin: チ/ジ stand for ti/di, a final ル/ス/ト for a bare consonant, ウラ for Vla).

function japaneseReadings(name: string): LatinReading[] {
  const hepburn = anyAscii(name.replace(/[・･]/g, " ").replace(/[ーｰ]/g, "")).toLowerCase();
  const out: LatinReading[] = [{ text: hepburn, label: "Japanese → Latin (Hepburn)" }];
  const loan = hepburn
    .split(/\s+/)
    .map((w) =>
      w
        .replace(/^ura/, "vla")
        .replace(/^uri/, "vli")
        .replace(/chi/g, "ti")
        .replace(/ji/g, "di")
        .replace(/tsu/g, "ts")
        .replace(/([bcdfghjklmnprstvz])u$/, "$1")
        .replace(/([td])o$/, "$1"),
    )
    .join(" ");
  if (loan !== hepburn) out.push({ text: loan, label: "Japanese → Latin (as a foreign name)" });
  return out;
}

// ---------------------------------------------------------------------------------------------

function dedupe(readings: LatinReading[]): LatinReading[] {
  const seen = new Set<string>();
  return readings.filter((r) => {
    const key = r.text.trim();
    if (key === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Most readings a name gets: each is screened in full, so they bound a query's cost. */
export const MAX_READINGS = 4;

/**
 * Latin readings of a name written (at least partly) in a script normalize.ts cannot read itself;
 * empty for Latin, Cyrillic and Greek names.
 */
export function latinReadings(name: string): LatinReading[] {
  const script = otherScriptOf(name);
  if (script === undefined) return [];
  let readings: LatinReading[];
  switch (script) {
    case "Arabic":
    case "Hebrew":
      readings = abjadReadings(name, script);
      break;
    case "Korean":
      readings = koreanReadings(name);
      break;
    case "Chinese":
      // Kana next to the characters makes it Japanese: any-ascii reads the kanji in pinyin, which
      // is what a Chinese reading of the name would be too.
      readings = /[\u3040-\u30ff]/.test(name) ? japaneseReadings(name) : chineseReadings(name);
      break;
    case "Japanese":
      readings = japaneseReadings(name);
      break;
    default: {
      const plain = anyAscii(name)
        .toLowerCase()
        .replace(/['’ʼ`]/g, "");
      const label = `${script} → Latin`;
      readings = [{ text: plain, label }];
      // Armenian "ու" is u; Georgian names end in the nominative -i ("პუტინი" Putin).
      // Bengali and Hindi write a foreign v with bha ("ভ্লাদিমির" Vladimir).
      const folded = plain
        .replace(/ow/g, "u")
        .replace(/\bbh(?=[lr])/g, "v")
        .split(/\s+/)
        .map((w) => (script === "Georgian" && w.length > 4 ? w.replace(/i$/, "") : w))
        .join(" ");
      if (folded !== plain) readings.push({ text: folded, label });
    }
  }
  return dedupe(readings).slice(0, MAX_READINGS);
}
