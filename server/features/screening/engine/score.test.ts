import { describe, expect, test } from "bun:test";
import { abbreviationSimilarity, editBudget, joinedSimilarity, scoreNames, tokenSimilarity } from "./score";

const THRESHOLD = 0.85;

describe("tokenSimilarity", () => {
  test("identical words score 1, unrelated 0", () => {
    expect(tokenSimilarity("rosneft", "rosneft")).toBe(1);
    expect(tokenSimilarity("rosneft", "gazprom")).toBe(0);
  });

  test("short words must match exactly", () => {
    expect(tokenSimilarity("sea", "sky")).toBe(0);
    expect(tokenSimilarity("al", "el")).toBe(0);
  });

  test("a typo in a long word keeps a high score", () => {
    expect(tokenSimilarity("rosneft", "rosnetf")).toBeGreaterThan(0.9);
    expect(tokenSimilarity("aerocaribean", "aerocaribbean")).toBeGreaterThan(0.95);
  });

  test("beyond the edit budget the words are different", () => {
    expect(editBudget(4)).toBe(1);
    expect(editBudget(8)).toBe(2);
    expect(tokenSimilarity("iran", "iranair")).toBe(0);
    expect(tokenSimilarity("rosneft", "rosnefteflot")).toBe(0);
  });

  test("a different first letter is not given Jaro-Winkler's benefit", () => {
    expect(tokenSimilarity("iran", "miran")).toBeLessThan(0.85);
    expect(tokenSimilarity("ryan", "iran")).toBeLessThan(0.7);
  });

  test("numbers must match exactly", () => {
    expect(tokenSimilarity("2016", "2017")).toBe(0);
    expect(tokenSimilarity("7-28", "7-28")).toBe(1);
  });

  test("a slip of the finger costs less than another letter", () => {
    expect(tokenSimilarity("lynh", "lynn")).toBeGreaterThan(0.85);
    expect(tokenSimilarity("wong", "wang")).toBeLessThan(0.8);
    // Two slips are a mistyped "Yusuf"; a slip and a dropped letter are as likely another name.
    expect(tokenSimilarity("yieuf", "yusuf")).toBeGreaterThan(tokenSimilarity("singh", "song"));
    expect(tokenSimilarity("singh", "song")).toBeLessThanOrEqual(0.6);
  });

  test("a long word may carry slips beyond its edit budget, if it starts right", () => {
    expect(tokenSimilarity("esljboza", "espinoza")).toBeGreaterThan(0.75);
    expect(tokenSimilarity("wsljboza", "espinoza")).toBe(0);
  });

  test("a mistyped abbreviation stands for the word it abbreviates", () => {
    expect(abbreviationSimilarity("mgtm", "management")).toBeGreaterThan(0.8);
    expect(abbreviationSimilarity("mhmt", "management")).toBeGreaterThan(0.8);
    expect(abbreviationSimilarity("intll", "international")).toBeGreaterThan(0.8);
    // Words shaped like words are not abbreviations: "Chen" is no "chem", "Intel" no "intl".
    expect(abbreviationSimilarity("chen", "chemical")).toBe(0);
    expect(abbreviationSimilarity("intel", "international")).toBe(0);
    expect(abbreviationSimilarity("mgtm", "marketing")).toBe(0);
  });

  test("joined words need a near-exact join", () => {
    expect(joinedSimilarity("shenyang", "shenyang")).toBe(1);
    expect(joinedSimilarity("harttois", "hartis")).toBe(0);
    expect(joinedSimilarity("novokuibyshevsk", "novokuibishevsk")).toBeGreaterThan(0.9);
    // Slips count half here too: "Lomge Vitu" is "Longevity" split and mistyped twice.
    expect(joinedSimilarity("lomgevitu", "longevity")).toBeGreaterThan(0.85);
  });
});

// Pairs a screening officer would want flagged: [query, list name].
const MUST_MATCH: ReadonlyArray<readonly [string, string, string]> = [
  ["exact", "Banco Nacional de Cuba", "BANCO NACIONAL DE CUBA"],
  ["case and punctuation", "anglo caribbean co ltd", "ANGLO-CARIBBEAN CO., LTD."],
  ["dropped Co., Ltd.", "Anglo-Caribbean", "ANGLO-CARIBBEAN CO., LTD."],
  ["dropped legal form, Russian", "Gazprom Transgaz Yugorsk", "GAZPROM TRANSGAZ YUGORSK, OOO"],
  ["legal form moved", "Elektroistochnik AO", "AO ELEKTROISTOCHNIK"],
  ["spelled-out legal form", "Acme LLC", "ACME LIMITED LIABILITY COMPANY"],
  ["misspelling", "Aerocaribean Airlines", "AEROCARIBBEAN AIRLINES"],
  ["transposed letters", "Rosnetf Trading", "ROSNEFT TRADING S.A."],
  ["two typos in a long name", "Commercializadora Cachoo", "COMERCIALIZADORA CACHO S.A. DE C.V."],
  ["reordered words", "Caribbean Anglo", "ANGLO-CARIBBEAN CO., LTD."],
  ["individual, either order", "Smith John", "John Smith"],
  ["individual, list order with comma", "John Smith", "SMITH, John"],
  ["hyphenated given name", "KIM Jong Un", "Kim Jong-un"],
  ["joined given name", "Kim Jongun", "KIM, Jong Un"],
  ["Cyrillic query, Latin list name", "Роснефть", "ROSNEFT"],
  ["Cyrillic person", "Сергей Шойгу", "SHOIGU, Sergei Kuzhugetovich"],
  ["Cyrillic with legal form", "ООО Газпром Трансгаз Югорск", "GAZPROM TRANSGAZ YUGORSK, OOO"],
  ["Greek query", "Αθηνά Ναυτιλιακή", "ATHINA NAFTILIAKI"],
  ["diacritics", "Société Générale d'Import Müller", "SOCIETE GENERALE D'IMPORT MULLER"],
  ["transliteration variants", "Aleksandr Dubinskiy", "DUBINSKY, Alexander"],
  ["kh / h", "Hassan Khodr", "KHODR, Khassan"],
  ["Arabic article joined", "Alrashid Trust", "AL RASHID TRUST"],
  ["Arabic article split", "Al Rashid Trust", "ALRASHID TRUST"],
  ["city joined", "Shenyang Machine Tool", "SHEN YANG MACHINE TOOL"],
  ["city split", "Shen Yang Machine Tool", "SHENYANG MACHINE TOOL"],
  ["abbreviation intl", "ETCO Intl Commodities", "ETCO INTERNATIONAL COMMODITIES LTD."],
  ["abbreviation mfg", "Acme Mfg Co", "ACME MANUFACTURING COMPANY"],
  ["impex", "Sinobright Impex", "SINOBRIGHT IMPORT EXPORT"],
  ["ampersand", "Khan and Schirindel", "KHAN & SCHIRINDEL GMBH"],
  ["long list name, short exact query", "Rosneft", "ROSNEFT OIL COMPANY"],
  ["list name plus generic words", "Rosneft Trading", "ROSNEFT"],
  ["company literally named after a country", "Cuba Trading", "CUBA TRADING"],
  ["single word", "Cimex", "CIMEX, S.A."],
  ["patronymic omitted", "Sergei Shoigu", "SHOIGU, Sergey Kuzhugetovich"],
  ["person contained in a longer listed name", "Ayman al-Zawahiri", "AL-ZAWAHIRI, Ayman Muhammad Rabi"],
  ["misspelt generic words", "Zulekha Generl Tradng", "ZULEKHA GENERAL TRADING LLC"],
  ["Mohammed / Muhammad", "Mohammed Ali Hassan", "HASSAN, Muhammad Ali"],
  ["vessel", "Sea Star", "SEA STAR"],
  ["numbered name", "Rak Won 2", "RAK WON 2"],
  ["one slip in a four-letter name", "Lynh", "LYNN"],
  ["swapped letters in a short name", "Pras Oil Co", "PARS OIL CO."],
  ["two slips in a short given name", "Al-Madani, Yieuf", "AL-MADANI, Yusuf"],
  ["three slips in a long surname", "Montenegro Esljboza Luis Angel", "MONTENEGRO ESPINOZA, Luis Angel"],
  ["mistyped abbreviation", "Abr Mgtm", "ABR MANAGEMENT"],
  ["abbreviation with a doubled letter", "Icgoo Intll Limited", "ICGOO INTERNATIONAL LIMITED"],
  ["legal form phrase with typos", "Joon Stck Company Compel", "JOINT STOCK COMPANY COMPEL"],
  [
    "transliterated legal form with typos",
    "Obshcestvo S Ogranichnni Otvtstenostyu Kompaniya Zolotoi Vek",
    "OBSHCHESTVO S OGRANICHENNOI OTVETSTVENNOSTYU KOMPANIYA ZOLOTOI VEK",
  ],
  ["trailing legal form mistyped", "Khan and Schirindel Gmby", "KHAN AND SCHIRINDEL GMBH"],
  ["split word with slips", "Lomge Vitu Shipping", "LONGEVITY SHIPPING LIMITED"],
  ["split word with a typo, compared as written", "Fan Reac", "FANREACH"],
  [
    "split name whose halves fold differently",
    "Vladj mir Nikolaevich Terentiev",
    "TERENTIEV, Vladimir Nikolaevich",
  ],
  [
    "split given name in a name with a repeated particle",
    "AL-SUBHI, Azzam Abd ullah Zureik Al-Maulid",
    "AL-SUBHI, Azzam Abdullah Zureik Al-Maulid",
  ],
];

// Pairs that share words but are not the same party.
const MUST_NOT_MATCH: ReadonlyArray<readonly [string, string, string]> = [
  ["only generic words in common", "General Trading Company", "International Trading Group"],
  ["generic words, different third", "Global Industrial Services", "Global Industrial Corp"],
  ["one-word query inside a longer name", "Sea", "Sea Star Shipping Ltd"],
  ["surname only", "Smith", "John Smith"],
  ["different given name", "Kim Jong Un", "KIM Jong Il"],
  ["country alone vs company named after it", "Iran", "IRAN AIR"],
  ["country alone vs joined name", "Iran", "IRANAIR"],
  ["prefix of a longer word", "Rosneft", "ROSNEFTEFLOT"],
  ["different subsidiary", "Gazprom Transgaz Ukhta", "GAZPROM TRANSGAZ YUGORSK"],
  ["different number", "Rak Won 2", "RAK WON 3"],
  ["ordinary company", "Johnson Precision Machining LLC", "JOHNSON, Robert"],
  ["ordinary company, shared trade word", "Nordic Timber AB", "NORDIC MARINE"],
  ["look-alike short words", "Kelly & Ryan NV", "RUIYUAN KEJI YOUXIAN GONGSI"],
  ["two unrelated look-alikes", "Price & Sanders S.p.A.", "PRIME TANKERS LLC"],
  ["accidental join", "Hart Toys Oy", "LIMITED LIABILITY COMPANY HARTIS DV"],
  ["first letter differs", "Iran", "MIRAN LLC"],
  ["shared particle only", "Al Noor Bakery", "AL RASHID TRUST"],
  ["a name is not a mistyped abbreviation", "Chen Trading", "CHEMICAL TRADING"],
  ["a word is not a mistyped abbreviation", "Intel Systems", "INTERNATIONAL SYSTEMS"],
  ["a slip and a dropped letter in a short name", "Kim Singh", "KIM, Song"],
  ["empty query", "", "ROSNEFT"],
  ["punctuation only", "---", "ROSNEFT"],
];

describe("scoreNames: must match (>= 0.85)", () => {
  test.each(MUST_MATCH)("%s: %s ~ %s", (_case, query, listName) => {
    expect(scoreNames(query, listName)).toBeGreaterThanOrEqual(THRESHOLD);
  });
});

describe("scoreNames: must not match (< 0.85)", () => {
  test.each(MUST_NOT_MATCH)("%s: %s / %s", (_case, query, listName) => {
    expect(scoreNames(query, listName)).toBeLessThan(THRESHOLD);
  });
});

describe("scoreNames properties", () => {
  test("scores are within 0..1", () => {
    for (const [, a, b] of [...MUST_MATCH, ...MUST_NOT_MATCH]) {
      const s = scoreNames(a, b);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });

  test("an exact name scores 1 whatever the legal form and case", () => {
    expect(scoreNames("ACME TRADING LLC", "Acme Trading, L.L.C.")).toBe(1);
  });

  test("word order does not matter", () => {
    expect(scoreNames("Alpha Beta Gamma", "Gamma Alpha Beta")).toBe(1);
  });

  test("generic-only overlap scores low", () => {
    expect(scoreNames("General Trading Company", "International Trading Group")).toBeLessThan(0.6);
  });
});
