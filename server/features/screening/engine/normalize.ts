import { isCountryWord } from "./countries";
import {
  ABBREVIATIONS,
  ANYWHERE_LEGAL_FORMS,
  EDGE_LEGAL_FORMS,
  EDGE_TITLES,
  GENERIC_WORDS,
  INDUSTRY_STEMS,
  INDUSTRY_WORDS,
  LEADING_LEGAL_FORMS,
  MULTI_WORD_LEGAL_FORMS,
  ORDINAL_WORDS,
  PARTICLES,
  SPELLING_VARIANTS,
  STOP_WORDS,
} from "./lexicon";
import { areKeyNeighbours, boundedLevenshtein, SLIP_COST, typingDistance } from "./similarity";
import type { NameToken, NormalizedName, TokenKind } from "./types";

/** Weight of each token kind in the score: how much a shared token of that kind says about identity. */
export const TOKEN_WEIGHTS: Readonly<Record<TokenKind, number>> = {
  core: 1,
  number: 0.6,
  country: 0.4,
  industry: 0.3,
  patronymic: 0.3,
  particle: 0.2,
  generic: 0.15,
};

// Text pasted from CP1252 sources sometimes arrives as C1 control characters (U+0080-U+009F).
const C1_TO_CP1252: Record<string, string> = {
  "\u0080": "€",
  "\u0082": "‚",
  "\u0084": "„",
  "\u0085": "…",
  "\u008a": "Š",
  "\u008b": "‹",
  "\u008c": "Œ",
  "\u008e": "Ž",
  "\u0091": "'",
  "\u0092": "'",
  "\u0093": '"',
  "\u0094": '"',
  "\u0096": "-",
  "\u0097": "-",
  "\u009a": "š",
  "\u009b": "›",
  "\u009c": "œ",
  "\u009e": "ž",
  "\u009f": "Ÿ",
};

// BGN/PCGN-style romanisation, which is what OFAC and BIS use for Russian, Ukrainian and
// Belarusian names; Serbian/Macedonian and Kazakh letters are added so they do not vanish.
const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  є: "ye",
  і: "i",
  ї: "yi",
  ґ: "g",
  ў: "u",
  ђ: "dj",
  ј: "j",
  љ: "lj",
  њ: "nj",
  ћ: "c",
  џ: "dz",
  ѓ: "gj",
  ќ: "kj",
  ѕ: "dz",
  ә: "a",
  ғ: "g",
  қ: "k",
  ң: "n",
  ө: "o",
  ұ: "u",
  ү: "u",
  һ: "h",
};

// Modern Greek romanisation (ELOT 743, simplified); diphthongs first so "ου" becomes "ou" not "oy".
const GREEK_DIGRAPHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ου/g, "ou"],
  [/αυ/g, "av"],
  [/ευ/g, "ev"],
  [/(^|[^\p{L}])μπ/gu, "$1b"],
  [/(^|[^\p{L}])ντ/gu, "$1d"],
  [/γγ/g, "ng"],
  [/γκ/g, "gk"],
];
const GREEK: Record<string, string> = {
  α: "a",
  β: "v",
  γ: "g",
  δ: "d",
  ε: "e",
  ζ: "z",
  η: "i",
  θ: "th",
  ι: "i",
  κ: "k",
  λ: "l",
  μ: "m",
  ν: "n",
  ξ: "x",
  ο: "o",
  π: "p",
  ρ: "r",
  σ: "s",
  ς: "s",
  τ: "t",
  υ: "y",
  φ: "f",
  χ: "ch",
  ψ: "ps",
  ω: "o",
};

// Latin letters that NFKD does not decompose into a base letter plus a mark.
const LATIN_SPECIAL: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŀ: "l",
  ŉ: "n",
  ſ: "s",
};

const CYRILLIC_RE = /[\u0400-\u04ff]/;
const GREEK_RE = /[\u0370-\u03ff]/;

function mapChars(text: string, table: Record<string, string>): string {
  let out = "";
  for (const ch of text) out += table[ch] ?? ch;
  return out;
}

/** LATIN_SPECIAL's letters, replaced in one pass rather than copying the text character by character. */
const LATIN_SPECIAL_RE = new RegExp(`[${Object.keys(LATIN_SPECIAL).join("")}]`, "gu");
/** A character outside ASCII: every step of foldText but the lowercasing maps only such characters. */
const NON_ASCII_RE = /[\u0080-\uffff]/;

/** Lowercases, transliterates Cyrillic/Greek to Latin and strips diacritics; punctuation is kept. */
export function foldText(input: string): string {
  // Most names and addresses are plain ASCII: lowercasing is then all there is to do (NFC and NFKD
  // leave ASCII as it is, and the tables map other characters only). A tenth of a screening's time
  // went to copying such text character by character.
  if (!NON_ASCII_RE.test(input)) return input.toLowerCase();
  let text = input.replace(/[\u0080-\u009f]/g, (ch) => C1_TO_CP1252[ch] ?? " ");
  text = text.toLowerCase().normalize("NFC");
  // Cyrillic before NFKD: "й" and "ё" would otherwise decompose and lose their identity.
  if (CYRILLIC_RE.test(text)) text = mapChars(text, CYRILLIC);
  text = text.normalize("NFKD").replace(/\p{M}/gu, "");
  if (GREEK_RE.test(text)) {
    for (const [pattern, latin] of GREEK_DIGRAPHS) {
      text = text.replace(pattern, latin);
    }
    text = mapChars(text, GREEK);
  }
  return text.replace(LATIN_SPECIAL_RE, (ch) => LATIN_SPECIAL[ch] as string);
}

/**
 * Splits folded text into lowercase ASCII words: "&" becomes "and", apostrophes join, other
 * punctuation splits. Runs of single letters are joined ("S.A." -> "sa") unless `lettersApart`.
 */
export function wordsOf(input: string, lettersApart = false): string[] {
  const text = foldText(input)
    .replace(/[&+]/g, " and ")
    .replace(/['`´ʼʻ’‘]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  if (text === "") return [];
  const raw = text.split(" ");
  if (lettersApart) return raw;
  // Runs of single letters are initialisms written with dots or spaces: "S.A." / "L L C" -> "sa" / "llc".
  const words: string[] = [];
  let run = "";
  for (const word of raw) {
    if (word.length === 1 && word >= "a" && word <= "z") {
      run += word;
      continue;
    }
    if (run !== "") words.push(run);
    run = "";
    words.push(word);
  }
  if (run !== "") words.push(run);
  return words;
}

/**
 * tokenKey's answers by word: an import's names and addresses repeat the same few thousand words
 * (street, city, trade words), and the fifteen replacements cost a quarter of a screening's time.
 * Cleared past the limit, so memory stays bounded (~10 MB at most).
 */
const tokenKeys = new Map<string, string>();
const TOKEN_KEY_CACHE_LIMIT = 100_000;

/**
 * Comparison key of one word: folds Latin spelling variants that transliteration produces for the
 * same sound (kh/h, ks/x, ph/f, ou/u, q/k, w/v, c/k, initial j/i/y, trailing -iy/-y/-i) and
 * doubled letters, so "Khassan"/"Hassan", "Aleksandr"/"Alexandr", "Yuriy"/"Yuri" share a key.
 */
export function tokenKey(word: string): string {
  let key = tokenKeys.get(word);
  if (key === undefined) {
    key = computeTokenKey(word);
    if (tokenKeys.size >= TOKEN_KEY_CACHE_LIMIT) tokenKeys.clear();
    tokenKeys.set(word, key);
  }
  return key;
}

function computeTokenKey(word: string): string {
  if (/[0-9]/.test(word)) return word;
  let s = word
    .replace(/^ts(?=[aeiouvy])/, "c")
    .replace(/dzh|dj|zh/g, "j")
    .replace(/tch/g, "ch")
    .replace(/sch/g, "sh")
    .replace(/kh/g, "h")
    .replace(/ph/g, "f")
    .replace(/th/g, "t")
    .replace(/ck/g, "k")
    .replace(/q/g, "k")
    .replace(/w/g, "v")
    .replace(/ks/g, "x")
    .replace(/tz/g, "ts")
    .replace(/ou/g, "u")
    .replace(/c(?!h)/g, "k");
  // Initial j/i/y before a vowel is the same glide in German, Slavic and English spellings.
  s = s.replace(/^[jiy](?=[aeou])/, "y");
  if (s.length > 1) s = s[0] + s.slice(1).replace(/y/g, "i");
  // A final "ah" is "a" in Arabic romanisations ("Abdullah" / "Abdulla", "Fatimah" / "Fatima").
  if (s.length > 4) s = s.replace(/ah$/, "a");
  s = s.replace(/(.)\1+/g, "$1");
  // Russian surname endings as German and French spellings write them: -off/-ow for -ov, -eff for -ev.
  return s.length >= 5 ? s.replace(/([oe])f$/, "$1v") : s;
}

/** Phonetic blocking key: first letter plus the consonant skeleton of the comparison key. */
export function phoneticKey(key: string): string {
  if (key.length === 0) return key;
  let out = key[0] as string;
  for (let i = 1; i < key.length; i++) {
    const ch = key[i] as string;
    if ("aeiouyh".includes(ch)) continue;
    if (out[out.length - 1] !== ch) out += ch;
  }
  return out;
}

// East Slavic patronymics: lists carry them, counterparties usually omit them.
const PATRONYMIC_RE = /(vich|vych|vna|ichna)$/;

// Misspelt generic words ("internatinal", "tradng") must not become distinctive, so long lexicon
// words are also found one edit away. Shorter words are left out: "marina" is a name, not "marine".
const FUZZY_LEXICON_MIN_LENGTH = 7;
const fuzzyLexicon = new Map<string, string[]>();
function oneDeletionVariants(word: string): string[] {
  const out = new Set<string>([word]);
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return [...out];
}
for (const word of [...GENERIC_WORDS, ...INDUSTRY_WORDS, ...EDGE_LEGAL_FORMS.keys()]) {
  if (word.length < FUZZY_LEXICON_MIN_LENGTH) continue;
  for (const variant of oneDeletionVariants(word)) {
    const list = fuzzyLexicon.get(variant);
    if (list === undefined) fuzzyLexicon.set(variant, [word]);
    else if (!list.includes(word)) list.push(word);
  }
}

/** The lexicon word (generic, industry or legal form) a misspelt word stands for, if it is one edit away. */
export function lexiconWordFor(word: string): string | undefined {
  if (word.length < FUZZY_LEXICON_MIN_LENGTH - 1 || /[0-9]/.test(word)) return undefined;
  if (GENERIC_WORDS.has(word) || INDUSTRY_WORDS.has(word) || EDGE_LEGAL_FORMS.has(word)) return word;
  for (const variant of oneDeletionVariants(word)) {
    for (const candidate of fuzzyLexicon.get(variant) ?? []) {
      if (boundedLevenshtein(word, candidate, 1) <= 1) return candidate;
    }
  }
  return undefined;
}

const ROMAN_NUMERAL_RE = /^(ii|iii|iv|vi|vii|viii|ix|xi|xii)$/;

/** Kind of a normalised word: decides its weight in the score. */
export function classifyWord(word: string): TokenKind {
  // Roman numerals number vessels and generations ("HERO II", "Smith III"); they must match exactly.
  if (/[0-9]/.test(word) || ROMAN_NUMERAL_RE.test(word)) return "number";
  if (GENERIC_WORDS.has(word)) return "generic";
  if (INDUSTRY_WORDS.has(word)) return "industry";
  const near = lexiconWordFor(word);
  if (near !== undefined && near !== word) {
    if (GENERIC_WORDS.has(near) || EDGE_LEGAL_FORMS.has(near)) return "generic";
    if (INDUSTRY_WORDS.has(near)) return "industry";
  }
  if (PARTICLES.has(word)) return "particle";
  if (isCountryWord(word)) return "country";
  if (word.length >= 7 && PATRONYMIC_RE.test(word)) return "patronymic";
  return "core";
}

const MULTI_FORMS: ReadonlyArray<{ texts: string[]; keys: string[]; letters: number; canonical: string }> =
  MULTI_WORD_LEGAL_FORMS.map(([form, canonical]) => ({
    texts: form.split(" "),
    keys: form.split(" ").map(tokenKey),
    letters: form.replace(/ /g, "").length,
    canonical,
  })).sort((a, b) => b.keys.length - a.keys.length);

// Two-word legal forms this long ("aktsionernoe obshchestvo") are matched as a phrase like longer ones.
const LONG_LEGAL_PHRASE = 20;

interface Word {
  text: string;
  key: string;
  source?: string;
}

// Abbreviations people mix into spelled-out legal forms ("Ltd Liability Co").
const LEGAL_WORD_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ltd: "limited",
    co: "company",
    corp: "corporation",
    inc: "incorporated",
    jt: "joint",
  }).map(([short, full]) => [short, tokenKey(full)]),
);

/**
 * A word of a multi-word legal form, allowing typos as in "Jonit Stpck Comapny": one in five or six
 * letters, two from seven. A whole phrase of near-misses is not a coincidence.
 */
function isLegalWord(word: Word, formText: string, formKey: string): boolean {
  if (word.key === formKey || LEGAL_WORD_SYNONYMS.get(word.text) === formKey) return true;
  return isNearLexiconWord(word.text, formText);
}

/** Within one edit of a lexicon word of five or six letters, two from seven; slips count half (typingDistance). */
function isNearLexiconWord(text: string, lexiconWord: string): boolean {
  if (lexiconWord.length < 5) return false;
  const first = text.charCodeAt(0);
  const lexiconFirst = lexiconWord.charCodeAt(0);
  if (first !== lexiconFirst && !areKeyNeighbours(first, lexiconFirst)) return false;
  // Up to eight letters, one real edit or two slips of the finger ("Compnay", "Limted", "Linoted"),
  // or letters left out ("Cmany"); never two wrong letters, so "Compass" and "Compact" stay words.
  if (lexiconWord.length >= 9) return typingDistance(text, lexiconWord, 2) <= 2;
  if (typingDistance(text, lexiconWord, 1) <= 1) return true;
  return (
    lexiconWord.length >= 7 && lexiconWord.length - text.length === 2 && isSubsequence(text, lexiconWord)
  );
}

/** Whether `short` is `long` with some letters left out. */
function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (let j = 0; j < long.length && i < short.length; j++) if (short[i] === long[j]) i++;
  return i === short.length;
}

/** Edits tolerated in one word of a long legal phrase: one in four letters, two to eight, three to twelve. */
function phraseWordBudget(length: number): number {
  if (length < 4) return 0;
  if (length === 4) return 1;
  if (length <= 8) return 2;
  return length <= 12 ? 3 : 4;
}

/** Edits between a word and a word of a long legal phrase, or -1 beyond its budget. */
function phraseWordEdits(text: string, key: string, formText: string, formKey: string): number {
  if (key === formKey || LEGAL_WORD_SYNONYMS.get(text) === formKey) return 0;
  const budget = phraseWordBudget(formText.length);
  if (budget === 0) return -1;
  const d = Math.min(typingDistance(text, formText, budget), typingDistance(key, formKey, budget));
  return d <= budget ? d : -1;
}

/**
 * End (exclusive) of the legal form `form` written from `words[start]`, or -1. Short two-word forms
 * take one or two typos per word (isLegalWord). Longer forms are matched as a phrase, as
 * an officer reads "Joon Stck Company Compel" or "Obshcestvo s Ogranichnni Otvtstenostyu Zolotoi Vek":
 * all words but one starting right, short words exact, longer ones within phraseWordBudget, one word
 * (nearly) intact, and at most one edit per five letters of the whole phrase; a long word may also
 * arrive split in two ("otvetstvennos tyu").
 */
function legalFormEnd(words: readonly Word[], start: number, form: (typeof MULTI_FORMS)[number]): number {
  const n = form.keys.length;
  if (n < 3 && form.letters < LONG_LEGAL_PHRASE) {
    if (start + n > words.length) return -1;
    for (let j = 0; j < n; j++) {
      if (!isLegalWord(words[start + j] as Word, form.texts[j] as string, form.keys[j] as string)) return -1;
    }
    return start + n;
  }
  if (start + n > words.length) return -1;
  // Typists rarely miss first letters: all but one word must start right (a cheap test first).
  let initials = 0;
  for (let j = 0; j < n; j++) {
    if ((words[start + j] as Word).text.charCodeAt(0) === (form.texts[j] as string).charCodeAt(0)) initials++;
  }
  if (initials < Math.max(2, n - 1)) return -1;
  let k = start;
  let edits = 0;
  let letters = 0;
  let anchored = false;
  let hasLong = false;
  for (let j = 0; j < n; j++) {
    const word = words[k];
    if (word === undefined) return -1;
    const formText = form.texts[j] as string;
    const formKey = form.keys[j] as string;
    letters += formText.length;
    let e = phraseWordEdits(word.text, word.key, formText, formKey);
    let used = 1;
    const next = words[k + 1];
    if (e !== 0 && formText.length >= 8 && next !== undefined) {
      const joined = word.text + next.text;
      const split = phraseWordEdits(joined, tokenKey(joined), formText, formKey);
      // The split itself counts as an edit.
      if (split >= 0 && (e < 0 || split + 1 < e)) {
        e = split + 1;
        used = 2;
      }
    }
    if (e < 0) return -1;
    if (formText.length >= 4) {
      hasLong = true;
      if (e <= 1) anchored = true;
    }
    edits += e;
    k += used;
  }
  return (anchored || !hasLong) && edits <= Math.floor(letters / 5) ? k : -1;
}

function stripMultiWordForms(words: Word[], found: string[]): Word[] {
  let out = words;
  for (const form of MULTI_FORMS) {
    const n = form.keys.length;
    if (out.length < n) continue;
    for (let i = 0; i + n <= out.length; i++) {
      const end = legalFormEnd(out, i, form);
      if (end >= 0) {
        found.push(form.canonical);
        out = [...out.slice(0, i), ...out.slice(end)];
        i--;
      }
    }
  }
  return out;
}

const LONG_EDGE_FORMS = [...EDGE_LEGAL_FORMS.keys()].filter((form) => form.length >= 5);
const SLIP_TAIL_FORMS = ["gmbh", "dmcc", "fzco", "pjsc", "ojsc", "cjsc", "ltda"];

// Trailing legal forms are typed as carelessly as the rest ("Limted", "Linoted", "Compnay").
function edgeLegalForm(text: string): string | undefined {
  const exact = EDGE_LEGAL_FORMS.get(text);
  if (exact !== undefined) return exact;
  const near = LONG_EDGE_FORMS.find((form) => isNearLexiconWord(text, form));
  if (near !== undefined) return EDGE_LEGAL_FORMS.get(near);
  // Four-letter forms that are no word in any language take one slip at the end of a name ("Gmby").
  if (text.length < 3 || text.length > 5) return undefined;
  const slipped = SLIP_TAIL_FORMS.find((form) => typingDistance(text, form, SLIP_COST) <= SLIP_COST);
  return slipped === undefined
    ? undefined
    : (ANYWHERE_LEGAL_FORMS.get(slipped) ?? EDGE_LEGAL_FORMS.get(slipped));
}

function stripLegalForms(words: Word[]): { words: Word[]; legalForms: string[] } {
  const found: string[] = [];
  let out = stripMultiWordForms(words, found);
  out = out.filter((w) => {
    const form = ANYWHERE_LEGAL_FORMS.get(w.text);
    if (form === undefined) return true;
    found.push(form);
    return false;
  });
  // Edge forms are peeled from both ends repeatedly: "X Co Ltd", "OOO X", "X, S.A. de C.V.".
  let changed = true;
  while (changed && out.length > 0) {
    changed = false;
    const last = out[out.length - 1] as Word;
    const lastForm = edgeLegalForm(last.text);
    if (lastForm !== undefined || EDGE_TITLES.has(last.text)) {
      if (lastForm !== undefined) found.push(lastForm);
      out = out.slice(0, -1);
      changed = true;
      continue;
    }
    const first = out[0] as Word;
    const firstForm = LEADING_LEGAL_FORMS.has(first.text) ? EDGE_LEGAL_FORMS.get(first.text) : undefined;
    if (firstForm !== undefined || EDGE_TITLES.has(first.text)) {
      if (firstForm !== undefined) found.push(firstForm);
      out = out.slice(1);
      changed = true;
    }
  }
  return { words: out, legalForms: found };
}

function expandAbbreviations(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const word of words) {
    const expansion = ABBREVIATIONS.get(word.text);
    if (expansion === undefined) {
      out.push(word);
      continue;
    }
    const parts = expansion.split(" ");
    // Only a one-word expansion keeps its spelling: "impex" is not a spelling of "import" alone.
    for (const part of parts) {
      out.push({ text: part, key: tokenKey(part), source: parts.length === 1 ? word.text : undefined });
    }
  }
  return out;
}

/** Comparison keys shared by spellings of one name (SPELLING_VARIANTS, merged where groups overlap). */
const SPELLING_KEYS = (() => {
  const parent = new Map<string, string>();
  const find = (w: string): string => {
    let root = w;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    return root;
  };
  for (const group of SPELLING_VARIANTS) {
    for (const word of group) if (!parent.has(word)) parent.set(word, word);
    for (const word of group.slice(1)) {
      const a = find(group[0] as string);
      const b = find(word);
      if (a !== b) parent.set(b, a);
    }
  }
  const keys = new Map<string, string>();
  for (const word of parent.keys()) keys.set(word, tokenKey(find(word)));
  return keys;
})();

/** The comparison key of a word: a shared key for name spellings and industry-word forms. */
function canonicalKey(text: string, key: string): string {
  return SPELLING_KEYS.get(text) ?? INDUSTRY_STEMS.get(text) ?? key;
}

/**
 * Ordinals and numbers written as words: "13th" and "thirteenth" become "13", and "No." before a
 * number goes ("No. 13" is "13").
 */
function foldOrdinals(words: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as Word;
    const next = words[i + 1];
    if ((word.text === "no" || word.text === "nr" || word.text === "number") && next && /^\d/.test(next.text))
      continue;
    const suffixed = /^(\d+)(st|nd|rd|th)$/.exec(word.text);
    const number = suffixed?.[1] ?? ORDINAL_WORDS.get(word.text);
    out.push(number === undefined ? word : { text: number, key: number, source: word.text });
  }
  return out;
}

function toTokens(words: Word[]): NameToken[] {
  return words.map(({ text, source, ...rest }) => {
    const key = canonicalKey(text, rest.key);
    const kind = classifyWord(text);
    const token: NameToken = { text, key, kind, weight: TOKEN_WEIGHTS[kind] };
    if (source !== undefined) token.source = source;
    return token;
  });
}

/**
 * Normalises a party name into weighted comparison tokens; legal forms, titles and stop words are
 * set aside unless nothing else would remain (a list entry literally named "Company" keeps it).
 */
export function normalizeName(name: string): NormalizedName {
  const all: Word[] = foldOrdinals(wordsOf(name).map((text) => ({ text, key: tokenKey(text) })));
  if (all.length === 0) return { tokens: [], legalForms: [] };
  const content = all.filter((w) => !STOP_WORDS.has(w.text));
  const { words, legalForms } = stripLegalForms(content.length > 0 ? content : all);
  if (words.length > 0) return { tokens: toTokens(expandAbbreviations(words)), legalForms };
  return { tokens: toTokens(expandAbbreviations(content.length > 0 ? content : all)), legalForms: [] };
}

/** Normalised words of free text such as an address, for overlap checks. */
export function addressWords(address: string): string[] {
  return wordsOf(address).map(tokenKey);
}
