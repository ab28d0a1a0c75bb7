// Restricted-party screening engine: list parsers, name normalisation, scoring and the in-memory
// index. Pure TypeScript with no database or network access; the feature's service layer owns
// storage, imports and HTTP.

export { findListFile, loadBundledLists, screeningDataDir } from "./bundled-lists";
export { isCountryWord, toCountryCode } from "./countries";
export { normalizeName, TOKEN_WEIGHTS, tokenKey } from "./normalize";
export { CSL_LIST, cslSourceList, parseCsl } from "./parsers/csl";
export { BIS_DPL_LIST, parseDpl } from "./parsers/dpl";
export { OFAC_SDN_LIST, type OfacParseOptions, parseOfacSdn } from "./parsers/ofac";
export type { ListBytes } from "./parsers/text";
export { scoreNames, tokenSimilarity } from "./score";
export {
  ACRONYM_SCORE,
  ADDRESS_BONUS,
  buildIndex,
  COUNTRY_BONUS,
  DEFAULT_THRESHOLD,
  type IndexStats,
  type NameHit,
  nameHitsKey,
  type ScreeningIndex,
  scoreName,
  scoreNameCached,
  screen,
  screenWithHits,
} from "./screening-index";
export { boundedLevenshtein, jaroWinkler, levenshtein } from "./similarity";
export type * from "./types";
