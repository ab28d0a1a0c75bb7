import { describe, expect, test } from "bun:test";
import { loadBundledLists } from "./bundled-lists";
import { scoreNames } from "./score";
import {
  ADDRESS_BONUS,
  buildIndex,
  COUNTRY_BONUS,
  nameHitsKey,
  scoreName,
  scoreNameCached,
  screen,
} from "./screening-index";
import type { ListEntry } from "./types";

function entry(sourceId: string, name: string, extra: Partial<ListEntry> = {}): ListEntry {
  return {
    sourceList: "TEST",
    sourceId,
    entityType: "entity",
    name,
    aliases: [],
    programs: ["TEST-PROGRAM"],
    addresses: [],
    countries: [],
    ...extra,
  };
}

const ENTRIES: ListEntry[] = [
  entry("1", "ANGLO-CARIBBEAN CO., LTD.", { aliases: ["AVIA IMPORT"], countries: ["United Kingdom"] }),
  entry("2", "BANCO NACIONAL DE CUBA", {
    aliases: ["NATIONAL BANK OF CUBA"],
    addresses: ["Zweierstrasse 35, Zurich CH-8022, Switzerland"],
    countries: ["Switzerland"],
  }),
  entry("3", "KIM, Jong Un", { entityType: "individual", countries: ["KP"] }),
  entry("4", "ROSNEFT OIL COMPANY", { aliases: ["ROSNEFT"] }),
  entry("5", "ROSNEFT TRADING S.A."),
  entry("6", "LIBERTY", { entityType: "vessel" }),
  entry("7", "APPLIED SYSTEMS METHODS AND TECHNOLOGY (ASMAT)"),
  entry("8", "SHOIGU, Sergei Kuzhugetovich", { entityType: "individual" }),
  entry("9", "SHENYANG MACHINE TOOL GROUP"),
  entry("10", "GLOBAL TRADING GROUP LLC"),
  entry("11", "ACME INDUSTRIES", { countries: ["RU"], addresses: ["ul. Lenina 5, Novosibirsk, RU"] }),
];

const index = buildIndex(ENTRIES);

describe("screen on a small index", () => {
  test("an exact list name fails with that entry first", () => {
    const result = screen(index, { name: "Banco Nacional de Cuba" });
    expect(result.status).toBe("failed");
    expect(result.bestScore).toBe(1);
    expect(result.matches[0]?.entry.sourceId).toBe("2");
    expect(result.matches[0]?.matchedName).toBe("BANCO NACIONAL DE CUBA");
  });

  test("an alias is reported as the matched name", () => {
    const result = screen(index, { name: "Avia Import" });
    expect(result.matches[0]?.entry.sourceId).toBe("1");
    expect(result.matches[0]?.matchedName).toBe("AVIA IMPORT");
  });

  test("an ordinary name passes with no matches", () => {
    const result = screen(index, { name: "Sunrise Dental Supplies Inc" });
    expect(result.status).toBe("passed");
    expect(result.matches).toEqual([]);
    expect(result.multiple).toBe(false);
  });

  test("an empty or punctuation-only name never matches", () => {
    for (const name of ["", "   ", "--", "LLC"]) {
      const result = screen(index, { name, country: "RU", address: "Novosibirsk" });
      expect(result.status).toBe("passed");
    }
  });

  test("multiple distinct entries at the threshold set `multiple`", () => {
    const result = screen(index, { name: "Rosneft" });
    expect(result.status).toBe("failed");
    expect(result.multiple).toBe(true);
    expect(result.matches.map((m) => m.entry.sourceId)).toEqual(["4", "5"]);
    expect(result.matches[0]?.score).toBeGreaterThanOrEqual(result.matches[1]?.score ?? 0);
  });

  test("one entry reached through several names is counted once", () => {
    const result = screen(index, { name: "Rosneft Oil Company" });
    expect(result.matches.filter((m) => m.entry.sourceId === "4")).toHaveLength(1);
  });

  test("threshold, top and minScore options", () => {
    expect(screen(index, { name: "Rosneft" }, { threshold: 1.01 }).status).toBe("passed");
    expect(screen(index, { name: "Rosneft" }, { top: 1 }).matches).toHaveLength(1);
    const near = screen(index, { name: "Rosneft Oil" }, { minScore: 0 });
    expect(near.matches.length).toBeGreaterThanOrEqual(2);
  });

  test("individuals in either order, Cyrillic input, omitted patronymic", () => {
    expect(screen(index, { name: "Kim Jong-un" }).matches[0]?.entry.sourceId).toBe("3");
    expect(screen(index, { name: "Jong Un Kim" }).status).toBe("failed");
    expect(screen(index, { name: "Сергей Шойгу" }).matches[0]?.entry.sourceId).toBe("8");
  });

  test("joined and split words", () => {
    expect(screen(index, { name: "Shen Yang Machine Tool" }).matches[0]?.entry.sourceId).toBe("9");
  });

  test("names in parentheses are indexed on their own", () => {
    expect(screen(index, { name: "ASMAT" }).matches[0]?.entry.sourceId).toBe("7");
    expect(screen(index, { name: "Applied Systems Methods and Technology" }).status).toBe("failed");
  });

  test("vessel names are not matched by a company that shares one word", () => {
    expect(screen(index, { name: "Liberty Travel Co." }).status).toBe("passed");
    expect(screen(index, { name: "Liberty" }).status).toBe("failed");
  });

  test("a word with more typos than its blocking keys reach is still compared", () => {
    // "Rossft" shares no one-deletion key with "Rosneft", and "Oil" alone would not make the
    // candidate worth scoring: the word is assumed to pair up, then compared for real.
    const result = screen(index, { name: "Rossft Oil Company" });
    expect(result.status).toBe("failed");
    expect(result.matches[0]?.entry.sourceId).toBe("4");
    const small = buildIndex([entry("1", "CHEER CAPITAL LIMITED"), entry("2", "RHINE SHIPPING DMCC")]);
    expect(screen(small, { name: "Capital Cehwr Limited" }).matches[0]?.entry.sourceId).toBe("1");
    expect(screen(small, { name: "Shipping Rnkne DMCC" }).matches[0]?.entry.sourceId).toBe("2");
    // The assumption never makes an unrelated word match.
    expect(screen(small, { name: "Capital Growth Limited" }).status).toBe("passed");
  });

  test("a mistyped word that runs two of the name's words together is still compared", () => {
    // Blocking sees only "Electronic Industry", too little alone; "Honnpgnag" is "Hong Pang" joined.
    const small = buildIndex([entry("1", "HONG PANG ELECTRONIC INDUSTRY CO., LTD.")]);
    const result = screen(small, { name: "honnpgnag, elwctronic industry co.,-ltd." });
    expect(result.status).toBe("failed");
    expect(result.matches[0]?.entry.sourceId).toBe("1");
    expect(screen(small, { name: "Hongkong Electronic Industry Co" }).status).toBe("passed");
  });

  test("generic words alone do not match", () => {
    expect(screen(index, { name: "International Trading Group" }).status).toBe("passed");
  });

  test("country is supporting evidence only: a small bonus, capped at 1", () => {
    const without = screen(index, { name: "Acme Industries Trading" }, { minScore: 0 });
    const withCountry = screen(
      index,
      { name: "Acme Industries Trading", country: "Russia" },
      { minScore: 0 },
    );
    const base = without.matches.find((m) => m.entry.sourceId === "11")?.score ?? 0;
    const boosted = withCountry.matches.find((m) => m.entry.sourceId === "11")?.score ?? 0;
    expect(boosted).toBeCloseTo(Math.min(1, base + COUNTRY_BONUS), 4);
    expect(screen(index, { name: "Banco Nacional de Cuba", country: "CH" }).bestScore).toBe(1);
    // A country never makes an unrelated name match.
    expect(screen(index, { name: "Sunrise Dental", country: "RU" }).status).toBe("passed");
  });

  test("address overlap adds a small bonus", () => {
    const plain = screen(index, { name: "Acme Industries Trading" }, { minScore: 0 });
    const withAddress = screen(
      index,
      { name: "Acme Industries Trading", address: "Lenina 5, Novosibirsk" },
      { minScore: 0 },
    );
    const a = plain.matches.find((m) => m.entry.sourceId === "11")?.score ?? 0;
    const b = withAddress.matches.find((m) => m.entry.sourceId === "11")?.score ?? 0;
    expect(b).toBeCloseTo(Math.min(1, a + ADDRESS_BONUS), 4);
  });

  test("an index of no entries screens every name as passed", () => {
    const empty = buildIndex([]);
    for (const name of ["Bank Melli Iran", "IRISL", "Ivan Petrov"])
      expect(screen(empty, { name, country: "IR" })).toMatchObject({ status: "passed", matches: [] });
  });

  test("stats describe the index", () => {
    expect(index.stats.entries).toBe(ENTRIES.length);
    expect(index.stats.names).toBeGreaterThan(ENTRIES.length);
    expect(index.stats.buildMs).toBeGreaterThanOrEqual(0);
  });
});

describe("screen on the real lists", () => {
  const { entries } = loadBundledLists();
  const real = buildIndex(entries);
  const sourceIdsOf = (name: string, country?: string): string[] =>
    screen(real, { name, country }).matches.map((m) => `${m.entry.sourceList}:${m.entry.sourceId}`);

  test("pruning never skips a name exact scoring flags (typos, dropped and added words)", () => {
    // A bound that allowed the contained-name discount only where blocking saw two strong word
    // pairs let every one of these pass: exact scoring finds a pair blocking never saw.
    for (const [name, listed] of [
      ["S M S TExCEOM FZCO", "S M S TELECOM FZCO"],
      ["KAZ Sergey Ivanovich", "IVANOV, SERGEI"],
      ["LIM LIABILITY COMPANY LAB SERVICE", "LAB SERVIS"],
    ] as const) {
      const result = screen(real, { name });
      expect(result.status, name).toBe("failed");
      expect(
        result.matches.some((m) => m.matchedName.toUpperCase().includes(listed)),
        `${name}: ${result.matches.map((m) => m.matchedName).join("; ")}`,
      ).toBe(true);
    }
  });

  test("known SDN entries are found from disguised names", () => {
    expect(sourceIdsOf("Banco Nacional de Cuba")).toContain("OFAC SDN:306");
    expect(sourceIdsOf("Roсnefть")).toContain("OFAC SDN:17022");
    expect(sourceIdsOf("Роснефть")).toContain("OFAC SDN:17022");
    expect(sourceIdsOf("Aerocaribean Airlines")).toContain("OFAC SDN:36");
    expect(sourceIdsOf("Kim Jong-un")).toContain("OFAC SDN:20157");
    expect(sourceIdsOf("Iran Air PJSC")).toContain("OFAC SDN:25237");
  });

  test("ordinary company names pass", () => {
    for (const name of [
      "Johnson Precision Machining LLC",
      "Nordic Timber AB",
      "Sunrise Dental Supplies Inc",
    ]) {
      expect(screen(real, { name }).status).toBe("passed");
    }
  });

  test("Iran alone does not fail against Iran Air", () => {
    const result = screen(real, { name: "Iran" });
    expect(result.matches.some((m) => m.entry.sourceId === "25237" && m.score >= 0.85)).toBe(false);
  });

  test("a single query is fast", () => {
    const started = performance.now();
    for (let i = 0; i < 50; i++) screen(real, { name: "Mohammed Ali Hassan Trading" });
    expect((performance.now() - started) / 50).toBeLessThan(50);
  });
});

describe("work shared across queries", () => {
  // Blocking units and word similarities are memoised per index across queries (a batch's common
  // words are compared once): the memo must change no outcome, whatever was screened before.
  const QUERIES = [
    "Rosneft Trading SA",
    "Rosnft Oil Co",
    "Shen Yang Machine Tool Grp",
    "Global Tradng Group",
    "Anglo Caribean Company Ltd",
    "Jong Un Kim",
    "Shoigu Sergey",
    "Applied Systms Methods & Tech",
    "Liberty Travel Co.",
    "National Bank of Cuba",
    "Acme Industrial",
    "Harbor Trading GmbH",
  ];
  const outcome = (idx: ReturnType<typeof buildIndex>, name: string) => {
    const r = screen(idx, { name, country: "RU" });
    return JSON.stringify([
      r.status,
      r.bestScore,
      r.matches.map((m) => [m.entry.sourceId, m.matchedName, m.score]),
    ]);
  };

  test("each query scores the same on a fresh index, after the others, and in reverse order", () => {
    const alone = QUERIES.map((q) => outcome(buildIndex(ENTRIES), q));
    const shared = buildIndex(ENTRIES);
    expect(QUERIES.map((q) => outcome(shared, q))).toEqual(alone);
    expect(QUERIES.map((q) => outcome(shared, q))).toEqual(alone);
    const reversed = buildIndex(ENTRIES);
    expect([...QUERIES].reverse().map((q) => outcome(reversed, q))).toEqual([...alone].reverse());
    // The memo is not a constant answer: different queries still differ.
    expect(new Set(alone).size).toBeGreaterThan(6);
  });
});

describe("hits shared by names that normalise alike (nameHitsKey)", () => {
  const index = buildIndex(ENTRIES);
  const hitsOf = (name: string) => JSON.stringify(scoreName(index, name, { threshold: 0.85, top: 5 }));

  test("legal form, case and punctuation set aside: one key, and the same hits", () => {
    const spellings = [
      "Rosneft Trading SA",
      "ROSNEFT TRADING, S.A.",
      "rosneft trading GmbH",
      "Rosneft Trading",
    ];
    expect(new Set(spellings.map(nameHitsKey)).size).toBe(1);
    expect(new Set(spellings.map(hitsOf)).size).toBe(1);
    // The shared hits are a real answer, not an empty one.
    expect(scoreName(index, spellings[0] as string).length).toBeGreaterThan(0);
  });

  test("any difference in the words scoreName reads gives another key", () => {
    const names = ["Rosneft Trading", "Rosneft Tradng", "Rosneft Trading Intl", "Trading Rosneft", "Rosneft"];
    expect(new Set(names.map(nameHitsKey)).size).toBe(names.length);
  });

  test("a batch cache scores each key once, knows each spelling, and starts again past its limit", () => {
    const cache = new Map<string, ReturnType<typeof scoreName>>();
    // The key and the spelling as written.
    const first = scoreNameCached(cache, index, "Rosneft Trading SA", {}, 4);
    expect(cache.size).toBe(2);
    // Another spelling of the same key: the same hits, one entry more; the same spelling: none.
    expect(scoreNameCached(cache, index, "ROSNEFT TRADING GmbH", {}, 4)).toBe(first);
    expect(scoreNameCached(cache, index, "ROSNEFT TRADING GmbH", {}, 4)).toBe(first);
    expect(cache.size).toBe(3);
    // A new key with no room for it and its spelling: the cache starts again.
    scoreNameCached(cache, index, "Harbor Trading", {}, 4);
    expect(cache.size).toBe(2);
    expect(cache.has("\u0000ROSNEFT TRADING GmbH")).toBe(false);
    expect(JSON.stringify(scoreNameCached(cache, index, "Rosneft Trading", {}, 4))).toBe(
      JSON.stringify(first),
    );
    expect(cache.size).toBe(4);
  });
});

describe("acronyms of every spelling the list gives", () => {
  const acronymIndex = buildIndex([
    entry("A1", "AO ZAVOD FIOLENT", {
      aliases: ["AKTSIONERNOE OBSHCHESTVO ZAVOD FIOLENT", "JSC FIOLENT PLANT"],
    }),
    entry("A2", "UNION ABARROTERO DE JALISCO S.C. DE R.L. DE C.V."),
    entry("A3", "1425 BRICKELL AVENUE UNIT 46B, LLC"),
  ]);

  test("an alias's initials are found and the alias they come from is named", () => {
    const result = screen(acronymIndex, { name: "AOZF" });
    expect(result.status).toBe("failed");
    expect(result.matches[0]?.entry.sourceId).toBe("A1");
    expect(result.matches[0]?.matchedName).toBe("AKTSIONERNOE OBSHCHESTVO ZAVOD FIOLENT (initials AOZF)");
  });

  test("initials without the legal form, or with its first letter, as people write them", () => {
    for (const name of ["UAJ", "UAJS", "UAJSRC", "BAU"]) {
      expect(screen(acronymIndex, { name }).status, name).toBe("failed");
    }
  });

  test("near misses stay below the threshold: other letters, or a legal form's letters alone", () => {
    for (const name of ["UAJX", "AOZX", "SRC", "BAUX", "Union Abarrotes Trading"]) {
      expect(screen(acronymIndex, { name }).status, name).toBe("passed");
    }
  });
});

describe("letters written apart are initials", () => {
  const lettersIndex = buildIndex([
    entry("L1", "B K SALES CORPORATION"),
    entry("L2", "J M A SHIPPING INC."),
    entry("L3", "BKS TRADING"),
    entry("L4", "I.C.I.C. LTD."),
  ]);

  test("the letters and the words' initials make the acronym, and the list name is named", () => {
    const result = screen(lettersIndex, { name: "BKS" });
    expect(result.status).toBe("failed");
    const l1 = result.matches.find((m) => m.entry.sourceId === "L1");
    expect(l1?.matchedName).toBe("B K SALES CORPORATION (initials BKS)");
    expect(screen(lettersIndex, { name: "JMAS" }).matches[0]?.entry.sourceId).toBe("L2");
    expect(screen(lettersIndex, { name: "JMAS" }).status).toBe("failed");
  });

  test("near misses stay below the threshold: other or missing letters", () => {
    // "I.C.I.C. LTD." is ICIC: its last "C" is not a legal form's letter.
    for (const name of ["BKX", "JMAX", "JAMS", "KBS Shipping", "ICI"]) {
      expect(screen(lettersIndex, { name }).status, name).toBe("passed");
    }
  });
});

describe("legal forms of several words leave the initials whole", () => {
  const formIndex = buildIndex([
    entry("T1", "BASLAM PETROL SANAYI VE TICARET ANONIM SIRKETI"),
    entry("T2", "OZ RULMAN TICARET VE SANAYI LIMITED SIRKETI"),
    entry("T3", "JOINT STOCK COMPANY 81 ARMORED FIGHTING VEHICLE REPAIR PLANT"),
  ]);

  test("initials without 'Anonim Sirketi' or 'Limited Sirketi' name the listed spelling", () => {
    const result = screen(formIndex, { name: "BPSVT" });
    expect(result.status).toBe("failed");
    expect(result.matches[0]?.matchedName).toBe(
      "BASLAM PETROL SANAYI VE TICARET ANONIM SIRKETI (initials BPSVT)",
    );
    expect(screen(formIndex, { name: "ORTVS" }).matches[0]?.entry.sourceId).toBe("T2");
    expect(screen(formIndex, { name: "ORTVS" }).status).toBe("failed");
  });

  test("a leading form of several words too ('Joint Stock Company ...')", () => {
    const result = screen(formIndex, { name: "AFVRP" });
    expect(result.status).toBe("failed");
    expect(result.matches[0]?.matchedName).toBe(
      "JOINT STOCK COMPANY 81 ARMORED FIGHTING VEHICLE REPAIR PLANT (initials AFVRP)",
    );
  });

  test("near misses stay below the threshold: other or missing letters", () => {
    for (const name of ["BPSVX", "ORTSV", "PSVT", "AFVRX", "SCAFVRP"]) {
      expect(screen(formIndex, { name }).status, name).toBe("passed");
    }
  });
});

describe("pruning keeps what exact scoring reports", () => {
  const small = buildIndex([
    entry("1", "CHEER CAPITAL LIMITED"),
    entry("2", "AL-ZAWAHIRI, Ayman Muhammad Rabi", { entityType: "individual" }),
  ]);
  const scoreOf = (name: string, sourceId: string) =>
    screen(small, { name }, { minScore: 0.3 }).matches.find((m) => m.entry.sourceId === sourceId)?.score;

  test("a name wholly contained by two strong words keeps the contained-name discount", () => {
    // Two weighty words pair strongly: the discount applies and the exact score is reported.
    for (const name of ["Ayman al-Zawahiri", "Aymna al-Zawahiri", "Ayman Rabi"]) {
      expect(screen(small, { name }).status).toBe("failed");
      expect(scoreOf(name, "2")).toBe(round4(scoreNames(name, "AL-ZAWAHIRI, Ayman Muhammad Rabi")));
    }
    // One strong word is no contained name: the other words count in full.
    expect(screen(small, { name: "Ayman Khalil" }).status).toBe("passed");
    expect(screen(small, { name: "Rabi Trading Ayman" }).status).toBe("passed");
  });

  test("a mistyped word beyond blocking is compared wherever it stands among other unknown words", () => {
    // "Cehwr" is out of blocking's reach of "Cheer"; four more unknown words come before it (past
    // the lost words with typed memos) or after it: the exact score is reported either way.
    const exact = (name: string) => round4(scoreNames(name, "CHEER CAPITAL LIMITED"));
    for (const name of [
      "Qwxzv Cehwr Capital",
      "Qwxzv Jkqxp Zvbnm Plmqx Cehwr Capital",
      "Cehwr Qwxzv Jkqxp Zvbnm Plmqx Capital",
    ]) {
      expect(scoreOf(name, "1")).toBe(exact(name));
      expect(exact(name)).toBeGreaterThan(0.3);
    }
  });

  test("lost-word memos start afresh for every query", () => {
    const queries = [
      "Cehwr Capital",
      "Chrwe Capital",
      "Qwxzv Capital",
      "Capital Cehwr Limited",
      "Cehwr Qwxzv",
    ];
    const outcome = (idx: ReturnType<typeof buildIndex>, name: string) =>
      JSON.stringify(
        screen(idx, { name }, { minScore: 0.3 }).matches.map((m) => [m.entry.sourceId, m.score]),
      );
    const fresh = queries.map((q) =>
      outcome(
        buildIndex([
          entry("1", "CHEER CAPITAL LIMITED"),
          entry("2", "AL-ZAWAHIRI, Ayman Muhammad Rabi", { entityType: "individual" }),
        ]),
        q,
      ),
    );
    expect(queries.map((q) => outcome(small, q))).toEqual(fresh);
    expect([...queries].reverse().map((q) => outcome(small, q))).toEqual([...fresh].reverse());
    expect(new Set(fresh).size).toBeGreaterThan(2);
  });
});

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

describe("words of two or three letters", () => {
  // They have no deletion keys, so blocking never reaches their one-edit partners ("ian"/"iran",
  // "ru"/"rup"): the bound must keep such names in reach of exact scoring all the same.
  const small = buildIndex([
    entry("1", "IRAN POUYA"),
    entry("2", "RUP BELTAMOZHSERVIS"),
    entry("3", "POUYA TRADING AND MANUFACTURING COMPANY"),
  ]);

  test("a letter dropped from a short word is still compared", () => {
    const iran = screen(small, { name: "IAN POUYA" });
    expect(iran.status).toBe("failed");
    expect(iran.matches[0]?.entry.sourceId).toBe("1");
    const rup = screen(small, { name: "RU BELTAMOZHSERVIS" });
    expect(rup.status).toBe("failed");
    expect(rup.matches[0]?.entry.sourceId).toBe("2");
  });

  test("near misses stay below the threshold", () => {
    // Two letters off, a short word alone, or one word of a long name is not the listed name.
    for (const name of ["AN POUYA", "IAN", "RU Belta", "Brian Pouyan Dental"]) {
      expect(screen(small, { name }).status).toBe("passed");
    }
  });
});

describe("packed names", () => {
  test("a list whose first name is one word (no joined pairs) still packs and finds its longer names", () => {
    // The packed fields take their kind from their first item anywhere: a first name with an empty
    // list of pairs once decided "numbers" for every name and the build threw on the next one.
    const oneWordFirst = buildIndex([
      entry("1", "HAMAS"),
      entry("2", "SHENYANG MACHINE TOOL GROUP"),
      entry("3", "GLOBAL TRADING GROUP LLC"),
    ]);
    expect(screen(oneWordFirst, { name: "Shenyang Machine Tool Grp" }).matches[0]?.matchedName).toBe(
      "SHENYANG MACHINE TOOL GROUP",
    );
    expect(screen(oneWordFirst, { name: "Hamas" }).matches[0]?.matchedName).toBe("HAMAS");
    expect(screen(oneWordFirst, { name: "Shen Yang Machine Tool" }).status).toBe("failed");
  });
});
