import { describe, expect, test } from "bun:test";
import { foldText, normalizeName, phoneticKey, tokenKey, wordsOf } from "./normalize";

const texts = (name: string): string[] => normalizeName(name).tokens.map((t) => t.text);
const kinds = (name: string): string[] => normalizeName(name).tokens.map((t) => `${t.text}:${t.kind}`);

describe("foldText", () => {
  test.each([
    ["ÉCOLE Française", "ecole francaise"],
    ["Müller Straße", "muller strasse"],
    ["Ørsted Æble Œuvre", "orsted aeble oeuvre"],
    ["Łódź", "lodz"],
    ["Đorđević", "djordjevic".replace("dj", "d").replace("dj", "d")],
    ["İstanbul", "istanbul"],
    ["Sociedad Anónima", "sociedad anonima"],
  ])("diacritics: %s", (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  test.each([
    ["Роснефть", "rosneft"],
    ["Шойгу", "shoygu"],
    ["Щукин", "shchukin"],
    ["Жуков", "zhukov"],
    ["Хабаровск", "khabarovsk"],
    ["Царёв", "tsarev"],
    ["Чехов", "chekhov"],
    ["Юрий", "yuriy"],
    ["Ярослав", "yaroslav"],
    ["Йошкар", "yoshkar"],
    ["Объединение", "obedinenie"],
    ["Київ", "kiyiv"],
    ["Ђорђе", "djordje"],
  ])("Cyrillic: %s", (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  test.each([
    ["Αθήνα", "athina"],
    ["Παπαδόπουλος", "papadopoulos"],
    ["Μπουμπουλίνα", "boumpoulina"],
    ["Ευάγγελος", "evangelos"],
  ])("Greek: %s", (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  test("CP1252 characters that arrived as C1 controls", () => {
    expect(foldText("Gui\u0092an")).toBe("gui'an");
  });
});

describe("wordsOf", () => {
  test.each([
    ["A & B Trading", ["a", "and", "b", "trading"]],
    ["Smith+Sons", ["smith", "and", "sons"]],
    ["Int'l O'Brien", ["intl", "obrien"]],
    ["KIM Jong-un", ["kim", "jong", "un"]],
    ["S.A. de C.V.", ["sa", "de", "cv"]],
    ["L L C", ["llc"]],
    ["A.C. International", ["ac", "international"]],
    ["Sp. z o.o.", ["sp", "zoo"]],
    ["  ---  ", []],
    ["3K Aviation/Logistics (HK)", ["3k", "aviation", "logistics", "hk"]],
  ])("%s", (input, expected) => {
    expect(wordsOf(input)).toEqual(expected);
  });
});

describe("legal forms are set aside", () => {
  test.each([
    ["Anglo-Caribbean Co., Ltd.", ["anglo", "caribbean"], ["co ltd"]],
    ["Acme Company Limited", ["acme"], ["co ltd"]],
    ["Acme Co", ["acme"], ["co"]],
    ["PT Bank Acme", ["bank", "acme"], ["pt"]],
    ["Acme Corporation", ["acme"], ["corp"]],
    ["Acme Incorporated", ["acme"], ["inc"]],
    ["Acme L.L.C.", ["acme"], ["llc"]],
    ["Acme LLP", ["acme"], ["llp"]],
    ["Acme GmbH", ["acme"], ["gmbh"]],
    ["Acme AG", ["acme"], ["ag"]],
    ["Grupo Acme, S.A. de C.V.", ["grupo", "acme"], ["sa de cv"]],
    ["Acme SA", ["acme"], ["sa"]],
    ["Acme SARL", ["acme"], ["sarl"]],
    ["Acme S.R.L.", ["acme"], ["srl"]],
    ["Acme S.p.A.", ["acme"], ["spa"]],
    ["Acme B.V.", ["acme"], ["bv"]],
    ["Acme N.V.", ["acme"], ["nv"]],
    ["Acme PLC", ["acme"], ["plc"]],
    ["PJSC Acme", ["acme"], ["pjsc"]],
    ["OJSC Acme", ["acme"], ["ojsc"]],
    ["CJSC Acme", ["acme"], ["cjsc"]],
    ["OOO Acme", ["acme"], ["ooo"]],
    ["OAO Acme", ["acme"], ["oao"]],
    ["ZAO Acme", ["acme"], ["zao"]],
    ["PAO Acme", ["acme"], ["pao"]],
    ["AO Acme", ["acme"], ["ao"]],
    ["Acme FZE", ["acme"], ["fze"]],
    ["Acme FZCO", ["acme"], ["fzco"]],
    ["Acme FZ-LLC", ["acme"], ["fz llc"]],
    ["Acme Pte. Ltd.", ["acme"], ["pte ltd"]],
    ["Acme Pty Ltd", ["acme"], ["pty ltd"]],
    ["Acme Sdn. Bhd.", ["acme"], ["sdn bhd"]],
    ["Acme Bhd", ["acme"], ["bhd"]],
    ["Acme Private Limited", ["acme"], ["pvt ltd"]],
    ["Acme Pvt. Ltd.", ["acme"], ["pvt ltd"]],
    ["Acme K.K.", ["acme"], ["kk"]],
    ["Acme AB", ["acme"], ["ab"]],
    ["Acme AS", ["acme"], ["as"]],
    ["Acme A/S", ["acme"], ["as"]],
    ["Acme Oy", ["acme"], ["oy"]],
    ["Acme KG", ["acme"], ["kg"]],
    ["Acme GmbH & Co. KG", ["acme"], ["gmbh co kg"]],
    ["Acme Kft.", ["acme"], ["kft"]],
    ["Acme Sp. z o.o.", ["acme"], ["sp zoo"]],
    ["Acme Ltda.", ["acme"], ["ltda"]],
    ["Acme Limited Liability Company", ["acme"], ["llc"]],
    ["Joint Stock Company Acme", ["acme"], ["jsc"]],
    ["Open Joint-Stock Company Acme", ["acme"], ["ojsc"]],
    ["Obshchestvo s Ogranichennoy Otvetstvennostyu Acme", ["acme"], ["ooo"]],
    ["Aktsionernoe Obshchestvo Acme", ["acme"], ["ao"]],
    ["Acme Sanayi ve Ticaret Anonim Sirketi", ["acme", "sanayi", "ticaret"], ["as"]],
  ])("%s", (name, tokens, forms) => {
    const result = normalizeName(name);
    expect(result.tokens.map((t) => t.text)).toEqual(tokens);
    expect(result.legalForms.sort()).toEqual([...forms].sort());
  });

  test("edge-only forms stay when they are inside the name", () => {
    expect(texts("Sa Pa Travel")).toEqual(["sa", "pa", "travel"]);
    expect(texts("As Salam Bank")).toEqual(["as", "salam", "bank"]);
  });

  test("misspelt legal forms are still recognised", () => {
    expect(texts("Acme Limted")).toEqual(["acme"]);
    expect(texts("Jonit Stcok Compnay Acme")).toEqual(["acme"]);
    expect(texts("Ltd Liability Co Acme")).toEqual(["acme"]);
  });

  test("a long legal form is read as a phrase, however mistyped its words", () => {
    expect(normalizeName("Joon Stck Company Compel")).toEqual({
      tokens: normalizeName("Compel").tokens,
      legalForms: ["jsc"],
    });
    expect(texts("Limited Liabbilir Company Hotu Tent")).toEqual(["hotu", "tent"]);
    expect(texts("Obshcestvo S Ogranichnni Otvtstenostyu Zolotoi Vek")).toEqual(["zolotoi", "vek"]);
    expect(texts("Aotssiomernoe Obshchestvo Rust")).toEqual(["rust"]);
    // A word of the form split in two, as a line break leaves it.
    expect(texts("Obshchestvo s Ogranichennoi Otvetstvennos tyu Zolotoi Vek")).toEqual(["zolotoi", "vek"]);
  });

  test("a phrase of words that only resemble a legal form is kept", () => {
    // Too many edits for the phrase ("Jones" is three from "joint"), first letters that do not fit.
    expect(texts("Jones Stock Company Alpha")).toEqual(["jones", "stock", "company", "alpha"]);
    expect(texts("Lovely Labs Company Zeta")).toEqual(["lovely", "labs", "company", "zeta"]);
  });

  test("a trailing legal form with a slip of the finger", () => {
    expect(normalizeName("Schirindel Gmby").legalForms).toEqual(["gmbh"]);
    expect(normalizeName("Rungrin Domoany").legalForms).toEqual(["co"]);
    // Only forms that are no word anywhere: "Earl" is not a mistyped "SARL".
    expect(texts("John Earl")).toEqual(["john", "earl"]);
  });

  test("real words two edits from a legal form are kept", () => {
    // "Compass" is not a mistyped "Company": dropping it would make "Acme Compass" match any Acme.
    expect(texts("Acme Compass")).toEqual(["acme", "compass"]);
    expect(texts("Acme Compass Limited")).toEqual(["acme", "compass"]);
    expect(texts("Acme Compact")).toEqual(["acme", "compact"]);
    // One real edit or two slips still read as the form.
    expect(texts("Acme Compny")).toEqual(["acme"]);
    expect(texts("Acme Linoted")).toEqual(["acme"]);
    expect(texts("Acme Corporatoin")).toEqual(["acme"]);
    expect(texts("Acme Cmany")).toEqual(["acme"]);
  });

  test("a name that is only a legal form keeps it", () => {
    expect(texts("Company")).toEqual(["company"]);
    expect(texts("LLC")).toEqual(["llc"]);
  });

  test("titles and generational suffixes at the edges are dropped", () => {
    expect(texts("Dr. John Smith Jr.")).toEqual(["john", "smith"]);
    expect(texts("HERO II")).toEqual(["hero", "ii"]);
  });
});

describe("abbreviations are expanded", () => {
  test.each([
    ["ETCO Intl Commodities", "international"],
    ["ETCO Int'l", "international"],
    ["Acme Tech", "technology"],
    ["Acme Techn", "technology"],
    ["Acme Mgmt", "management"],
    ["Acme Mfg", "manufacturing"],
    ["Acme Eng", "engineering"],
    ["Acme Elec", "electronics"],
    ["Acme Ind", "industrial"],
    ["Acme Inds", "industries"],
    ["Acme Svcs", "services"],
    ["Acme Dev", "development"],
    ["Acme Grp", "group"],
    ["Acme Hldgs", "holdings"],
    ["Acme Natl Bank", "national"],
    ["Acme Bros", "brothers"],
    ["Acme Assoc", "associates"],
  ])("%s", (name, word) => {
    expect(texts(name)).toContain(word);
  });

  test("impex becomes two words and keeps no single source", () => {
    const tokens = normalizeName("Acme Impex").tokens;
    expect(tokens.map((t) => t.text)).toEqual(["acme", "import", "export"]);
    expect(tokens[1]?.source).toBeUndefined();
  });

  test("the written abbreviation is kept as the source", () => {
    expect(normalizeName("Acme Intl").tokens[1]?.source).toBe("intl");
  });

  test("imp and exp expand", () => {
    expect(texts("Acme Imp Exp")).toEqual(["acme", "import", "export"]);
  });
});

describe("token kinds and weights", () => {
  test("generic, industry, country, particle, patronymic, number", () => {
    expect(kinds("Al Rashid Trading")).toEqual(["al:particle", "rashid:core", "trading:generic"]);
    expect(kinds("Bank Melli Iran")).toEqual(["bank:industry", "melli:core", "iran:country"]);
    expect(kinds("Sergey Kuzhugetovich Shoigu")).toEqual([
      "sergey:core",
      "kuzhugetovich:patronymic",
      "shoigu:core",
    ]);
    expect(kinds("Rak Won 2")).toEqual(["rak:core", "won:core", "2:number"]);
  });

  test("misspelt generic words stay generic", () => {
    expect(kinds("Acme Internatinal Tradng")).toEqual([
      "acme:core",
      "internatinal:generic",
      "tradng:generic",
    ]);
  });

  test("stop words are dropped", () => {
    expect(texts("The Bank of the Nation and the People")).toEqual(["bank", "nation", "people"]);
  });

  test("core words weigh more than generic ones", () => {
    const [core, generic] = normalizeName("Acme Trading").tokens;
    expect(core?.weight).toBe(1);
    expect(generic?.weight).toBeLessThan(0.3);
  });
});

describe("comparison keys fold transliteration variants", () => {
  test.each([
    ["khassan", "hassan"],
    ["aleksandr", "alexandr"],
    ["yuriy", "yuri"],
    ["yury", "yuri"],
    ["sergey", "sergei"],
    ["dmitriy", "dmitry"],
    ["philipp", "filip"],
    ["youssef", "yusef"],
    ["qasim", "kasim"],
    ["wladimir", "vladimir"],
    ["jakov", "yakov"],
    ["iakov", "yakov"],
    ["djordje", "jordje"],
    ["abdullah", "abdulla"],
    ["cuba", "kuba"],
    ["schmidt", "shmidt"],
    ["thomas", "tomas"],
  ])("%s ~ %s", (a, b) => {
    expect(tokenKey(a)).toBe(tokenKey(b));
  });

  test("numbers are left alone", () => {
    expect(tokenKey("7-28")).toBe("7-28");
    expect(tokenKey("18th")).toBe("18th");
  });

  test("phonetic key keeps the first letter and the consonants", () => {
    expect(phoneticKey(tokenKey("mohammed"))).toBe(phoneticKey(tokenKey("muhammad")));
    expect(phoneticKey("shenyang")).toBe("sng");
    expect(phoneticKey("")).toBe("");
  });
});

describe("edge cases", () => {
  test("empty and punctuation-only names have no tokens", () => {
    expect(normalizeName("").tokens).toEqual([]);
    expect(normalizeName("  .,;- ").tokens).toEqual([]);
  });

  test("scripts without a transliteration table produce nothing rather than garbage", () => {
    expect(normalizeName("北京").tokens).toEqual([]);
  });
});
