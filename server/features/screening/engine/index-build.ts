// Building a screening index from list entries: names prepared and packed, postings by comparison
// key, typo and phonetic blocking keys, and the initials of organisations.

import { initialsOf, lettersApart, SINGLE_LETTER } from "./acronyms";
import { toCountryCode } from "./countries";
import { fnv1a, forEachDeletionHash, HAS_DIGIT, ID_BITS, PairBuffer } from "./hash-keys";
import { makeScratch, type NameField, type ScreeningIndex } from "./index-model";
import { normalizeName, phoneticKey, wordsOf } from "./normalize";
import { type PreparedName, prepareTokens } from "./score";
import type { ListEntry, NameToken } from "./types";

// Joined-word blocking keys are only built for short pairs: people join "Shen Yang", not long words.
const MAX_PAIR_KEY_LENGTH = 16;

/** Names to index for one entry: name, aliases, and for "Name (ACRONYM)" both halves. */
function nameVariants(entry: ListEntry): string[] {
  const out: string[] = [];
  for (const name of [entry.name, ...entry.aliases]) {
    out.push(name);
    if (!name.includes("(")) continue;
    const stripped = name.replace(/\([^)]*\)?/g, " ").trim();
    if (stripped !== "") out.push(stripped);
    for (const m of name.matchAll(/\(([^)]*)\)/g)) {
      const inner = (m[1] ?? "").trim();
      if (/^[A-Z0-9][A-Z0-9&.-]{2,}$/.test(inner)) out.push(inner);
    }
  }
  return out;
}

/** Builds the in-memory index (token postings plus typo, phonetic and joined-word blocking keys). */
export function buildIndex(entries: readonly ListEntry[]): ScreeningIndex {
  const started = performance.now();
  const names: PreparedName[] = [];
  const nameRefs: Array<Array<{ entry: number; display: string }>> = [];
  const nameIdByText = new Map<string, number>();
  const entryCountries: Array<Set<string>> = [];
  const uniformFlags: number[] = [];
  // Tokens of each name's first display form, so the acronyms below need not normalise it again.
  const firstTokens: NameToken[][] = [];
  // Every way the lists write each name, for its initials.
  const displaysOf: string[][] = [];

  // Entries share a handful of country sets: one Set per distinct set, not one per entry.
  const countrySets = new Map<string, Set<string>>();
  // Likewise the weight patterns of the names ([1, 1], [1, 0.3, 1], ...).
  const weightPatterns = new Map<string, number[]>();
  entries.forEach((entry, entryIdx) => {
    const codes = new Set<string>();
    for (const c of entry.countries) {
      const code = toCountryCode(c);
      if (code !== undefined) codes.add(code);
    }
    const countryKey = [...codes].sort().join(" ");
    let countries = countrySets.get(countryKey);
    if (countries === undefined) {
      countries = codes;
      countrySets.set(countryKey, codes);
    }
    entryCountries.push(countries);
    const seen = new Set<number>();
    const uniform = entry.entityType === "vessel" || entry.entityType === "aircraft";
    for (const display of nameVariants(entry)) {
      const { tokens } = normalizeName(display);
      if (tokens.length === 0) continue;
      const text = `${uniform ? "craft" : "party"}:${tokens.map((t) => t.text).join(" ")}`;
      let id = nameIdByText.get(text);
      if (id === undefined) {
        id = names.length;
        nameIdByText.set(text, id);
        firstTokens.push(tokens);
        displaysOf.push([]);
        const prepared = prepareTokens(tokens, uniform);
        const pattern = prepared.weights.join(" ");
        const shared = weightPatterns.get(pattern);
        if (shared === undefined) weightPatterns.set(pattern, prepared.weights);
        else prepared.weights = shared;
        names.push(prepared);
        nameRefs.push([]);
        uniformFlags.push(uniform ? 1 : 0);
      }
      displaysOf[id]?.push(display);
      if (seen.has(id)) continue;
      seen.add(id);
      nameRefs[id]?.push({ entry: entryIdx, display });
    }
  });

  const acronyms = new Map<string, Array<{ name: number; display: string }>>();
  names.forEach((_, n) => {
    if (uniformFlags[n] === 1) return;
    // People abbreviate organisations, not persons.
    const refs = nameRefs[n] ?? [];
    if (refs.every((ref) => entries[ref.entry]?.entityType === "individual")) return;
    // Every way the list writes the name counts: "AKTSIONERNOE OBSHCHESTVO ZAVOD FIOLENT" and
    // "AO ZAVOD FIOLENT" share their words once the legal form is set aside, not their initials.
    for (const display of new Set(displaysOf[n])) {
      // Letters written apart are initials already ("B K SALES CORPORATION" is "BKS", "J M A
      // SHIPPING" is "JMAS"), though wordsOf reads them as one word ("bk").
      const words = wordsOf(display);
      const apart = SINGLE_LETTER.test(display) ? lettersApart(wordsOf(display, true)) : words;
      const spellings = apart.length === words.length ? [words] : [words, apart];
      for (const written of spellings) {
        for (const acronym of initialsOf(firstTokens[n] ?? [], written)) {
          const ids = acronyms.get(acronym);
          if (ids === undefined) acronyms.set(acronym, [{ name: n, display }]);
          else if (!ids.some((id) => id.name === n)) ids.push({ name: n, display });
        }
      }
    }
  });

  // Postings: comparison key -> names containing it (and joined adjacent pairs as extra keys).
  const vocabulary = new Map<string, number>();
  const vocabKeys: string[] = [];
  const postName: number[] = [];
  const postVocab: number[] = [];
  const postWeight: number[] = [];
  const postWord: number[] = [];
  // Joined-pair keys only tolerate the edits joinedSimilarity allows, so they skip two-edit keys.
  const wordKey: boolean[] = [];
  const vocabId = (key: string, isWord = true): number => {
    let id = vocabulary.get(key);
    if (id === undefined) {
      id = vocabKeys.length;
      vocabulary.set(key, id);
      vocabKeys.push(key);
      wordKey.push(isWord);
    } else if (isWord) {
      wordKey[id] = true;
    }
    return id;
  };
  names.forEach((name, n) => {
    for (let i = 0; i < name.keys.length; i++) {
      postVocab.push(vocabId(name.keys[i] as string));
      postName.push(n);
      postWeight.push(name.weights[i] as number);
      postWord.push(Math.min(i, 31));
      // The plain spelling is a blocking key too: a typo can be closer to it than to the folded key.
      const text = name.texts[i] as string;
      if (text !== name.keys[i]) {
        postVocab.push(vocabId(text));
        postName.push(n);
        postWeight.push(name.weights[i] as number);
        postWord.push(Math.min(i, 31));
      }
    }
    for (let i = 0; i < name.pairKeys.length; i++) {
      const pair = name.pairKeys[i] as string;
      if (pair.length > MAX_PAIR_KEY_LENGTH || HAS_DIGIT.test(pair)) continue;
      const w = (name.weights[i] as number) + (name.weights[i + 1] as number);
      postVocab.push(vocabId(pair, false));
      postName.push(n);
      postWeight.push(w);
      postWord.push(Math.min(i, 31));
    }
  });
  if (vocabKeys.length >= ID_BITS) throw new Error("screening index: vocabulary too large");
  const postingStart = new Int32Array(vocabKeys.length + 1);
  for (const v of postVocab) postingStart[v + 1]++;
  for (let v = 0; v < vocabKeys.length; v++) postingStart[v + 1] += postingStart[v];
  const fill = postingStart.slice(0, vocabKeys.length);
  const postingName = new Int32Array(postVocab.length);
  const postingWeight = new Float32Array(postVocab.length);
  const postingWord = new Uint8Array(postVocab.length);
  for (let p = 0; p < postVocab.length; p++) {
    const v = postVocab[p] as number;
    const at = fill[v]++;
    postingName[at] = postName[p] as number;
    postingWeight[at] = postWeight[p] as number;
    postingWord[at] = postWord[p] as number;
  }

  const deletionPairs = new PairBuffer();
  const phoneticPairs = new PairBuffer();
  vocabKeys.forEach((key, v) => {
    if (key.length < 4 || HAS_DIGIT.test(key)) return;
    forEachDeletionHash(key, wordKey[v] === true, (hash) => deletionPairs.add(hash, v));
    if (key.length >= 5) phoneticPairs.add(fnv1a(phoneticKey(key)), v);
  });

  const nameCount = names.length;
  const deletions = deletionPairs.toMultimap();
  const phonetic = phoneticPairs.toMultimap();
  return {
    entries,
    ...packNames(names, nameRefs),
    uniformNames: Uint8Array.from(uniformFlags),
    vocabulary,
    vocabKeys,
    postingStart,
    postingName,
    postingWeight,
    postingWord,
    deletions,
    phonetic,
    entryCountries,
    acronyms,
    scratch: makeScratch(nameCount, vocabKeys.length),
    stats: {
      entries: entries.length,
      names: nameCount,
      vocabulary: vocabKeys.length,
      postings: postingName.length,
      blockingKeys: deletions.packed.length + phonetic.packed.length,
      buildMs: performance.now() - started,
    },
  };
}

/** The prepared names and their owners in the typed arrays of ScreeningIndex (see nameAt). */
function packNames(
  names: readonly PreparedName[],
  refsOfName: ReadonlyArray<ReadonlyArray<{ entry: number; display: string }>>,
) {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const intern = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      ids.set(text, id);
      strings.push(text);
    }
    return id;
  };
  const rows = names as unknown as ReadonlyArray<Record<string, unknown>>;
  const nameFields: NameField[] = Object.keys(rows[0] ?? {}).map((key) => {
    // A list field's kind is read from its first item anywhere (a one-word name has no pairs: an
    // empty list says nothing), so the lists' order can't change how a field is stored.
    const first = rows[0]?.[key];
    const firstItem = rows.find((row) => Array.isArray(row[key]) && (row[key] as unknown[]).length > 0)?.[
      key
    ] as unknown[] | undefined;
    const kind: NameField["kind"] =
      typeof first === "number" ? "number" : typeof firstItem?.[0] === "string" ? "strings" : "numbers";
    if (kind === "number")
      return {
        key,
        kind,
        start: new Int32Array(0),
        ids: new Int32Array(0),
        nums: Float64Array.from(rows, (row) => row[key] as number),
      };
    const start = new Int32Array(rows.length + 1);
    const idList: number[] = [];
    const numList: number[] = [];
    rows.forEach((row, n) => {
      const items = row[key];
      if (!Array.isArray(items)) throw new Error(`screening index: PreparedName.${key} is not a list`);
      for (const item of items) {
        if (typeof item === "string" && kind === "strings") idList.push(intern(item));
        else if (typeof item === "number" && kind === "numbers") numList.push(item);
        else throw new Error(`screening index: PreparedName.${key} mixes kinds`);
      }
      start[n + 1] = kind === "strings" ? idList.length : numList.length;
    });
    return { key, kind, start, ids: Int32Array.from(idList), nums: Float64Array.from(numList) };
  });
  let refCount = 0;
  for (const refs of refsOfName) refCount += refs.length;
  const nameTotal = Float64Array.from(names, (name) => name.total);
  const refStart = new Int32Array(names.length + 1);
  const refEntry = new Int32Array(refCount);
  const refDisplay = new Int32Array(refCount);
  let r = 0;
  for (let n = 0; n < names.length; n++) {
    for (const ref of refsOfName[n] ?? []) {
      refEntry[r] = ref.entry;
      refDisplay[r] = intern(ref.display);
      r++;
    }
    refStart[n + 1] = r;
  }
  return { strings, nameFields, nameTotal, refStart, refEntry, refDisplay };
}
