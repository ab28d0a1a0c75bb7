import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findListFile, screeningDataDir } from "../bundled-lists";
import { cslSourceList, parseCsl } from "./csl";
import { parseDpl } from "./dpl";
import { parseOfacSdn } from "./ofac";
import { decodeCp1252, decodeListText, parseDelimited, sha256Hex, toIsoDate } from "./text";

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
/** Latin-1 bytes for text that only uses code points below 256, as OFAC's CP1252 files do. */
const latin1 = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("text helpers", () => {
  test("CP1252 decoding, including the 0x80-0x9F range", () => {
    expect(decodeCp1252(Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x92, 0x80]))).toBe("Café ’€");
  });

  test("UTF-8 when valid, CP1252 otherwise; BOM and trailing 0x1A stripped", () => {
    expect(decodeListText(concat(Uint8Array.from([0xef, 0xbb, 0xbf]), enc("Łódź\n")), "T")).toBe("Łódź\n");
    expect(decodeListText(latin1("M\xfcller\r\n\x1a"), "T")).toBe("Müller\r\n");
  });

  test("binary content is refused with a line number", () => {
    expect(() => decodeListText(enc("a,b\nc\u0000d\n"), "T")).toThrow("T: line 2: binary content");
    expect(() => decodeListText(enc("a\x1ab\n"), "T")).toThrow("line 1");
  });

  test("RFC 4180 parsing", () => {
    const rows = parseDelimited('a,"b, c","d ""e"""\r\n\r\n"multi\nline",x,\n', ",", "T");
    expect(rows.map((r) => r.fields)).toEqual([
      ["a", "b, c", 'd "e"'],
      ["multi\nline", "x", ""],
    ]);
    expect(rows.map((r) => r.line)).toEqual([1, 3]);
    expect(() => parseDelimited('a,"b\n', ",", "T")).toThrow("T: line 1: unterminated quoted field");
    expect(() => parseDelimited('a,"b"c\n', ",", "T")).toThrow("line 1");
  });

  test("dates and checksums", () => {
    expect(toIsoDate("06/19/2003")).toBe("2003-06-19");
    expect(toIsoDate("2022-08-29")).toBe("2022-08-29");
    expect(toIsoDate("n/a")).toBeUndefined();
    expect(sha256Hex(enc("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex(enc("a"), undefined, enc("bc"))).toBe(sha256Hex(enc("abc")));
  });
});

const SDN_RAW = [
  '36,"AEROCARIBBEAN AIRLINES",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
  '306,"BANCO NACIONAL DE CUBA",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"a.k.a. \'BNC\'."',
  '2677,"AL-ZOMOR, Abboud",individual,"SDGT] [SYRIA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 19 Apr 1947; nationality Egypt; Gender Male."',
  '9999,"M\xdcLLER SHIP",vessel,"IRAN",-0- ,"ABC1","Tanker",-0- ,-0- ,"Panama",-0- ,-0- ',
].join("\r\n");
const ALT_RAW = [
  '36,12,"aka","AERO-CARIBBEAN",-0- ',
  '306,220,"aka","NATIONAL BANK OF CUBA",-0- ',
  '5,1,"aka","GONE",-0- ',
].join("\r\n");
const ADD_RAW = [
  '36,25,-0- ,"Havana","Cuba",-0- ',
  '306,199,"Zweierstrasse 35","Zurich CH-8022","Switzerland",-0- ',
].join("\r\n");

describe("parseOfacSdn", () => {
  test("raw SDN.CSV with ALT and ADD (CP1252, -0-, trailing 0x1A)", () => {
    const result = parseOfacSdn(
      latin1(`${SDN_RAW}\r\n\x1a`),
      latin1(`${ALT_RAW}\r\n\x1a`),
      latin1(`${ADD_RAW}\r\n\x1a`),
      { publishedAt: "2024-05-03" },
    );
    expect(result.rowCount).toBe(4);
    expect(result.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(result.warnings).toEqual(["ALT: 1 aliases refer to entries not in this SDN file"]);
    const [aero, bank, person, ship] = result.entries;
    expect(aero).toMatchObject({
      sourceList: "OFAC SDN",
      sourceId: "36",
      entityType: "entity",
      name: "AEROCARIBBEAN AIRLINES",
      aliases: ["AERO-CARIBBEAN"],
      programs: ["CUBA"],
      addresses: ["Havana, Cuba"],
      countries: ["Cuba"],
      publishedAt: "2024-05-03",
    });
    expect(bank?.aliases).toEqual(["BNC", "NATIONAL BANK OF CUBA"]);
    expect(bank?.addresses).toEqual(["Zweierstrasse 35, Zurich CH-8022, Switzerland"]);
    expect(person?.entityType).toBe("individual");
    expect(person?.programs).toEqual(["SDGT", "SYRIA"]);
    expect(person?.countries).toEqual(["Egypt"]);
    expect(person?.remarks).toContain("DOB 19 Apr 1947");
    expect(ship?.name).toBe("MÜLLER SHIP");
    expect(ship?.entityType).toBe("vessel");
    expect(ship?.countries).toEqual(["Panama"]);
  });

  test("the uid,name,type,programs,alternate_names CSV", () => {
    const csv =
      'uid,name,type,programs,alternate_names\n173,"ANGLO-CARIBBEAN CO., LTD.",entity,CUBA,AVIA IMPORT; ANGLO\n';
    const result = parseOfacSdn(enc(csv));
    expect(result.entries[0]).toMatchObject({
      sourceId: "173",
      name: "ANGLO-CARIBBEAN CO., LTD.",
      aliases: ["AVIA IMPORT", "ANGLO"],
    });
  });

  test("the JSON mirror, with its publication date", () => {
    const json = JSON.stringify({
      published: "2026-08-20",
      entries: [
        { uid: 36, name: "AEROCARIBBEAN AIRLINES", type: "entity", programs: ["CUBA"], alternateNames: [] },
      ],
    });
    const result = parseOfacSdn(enc(json), undefined, enc(ADD_RAW));
    expect(result.publishedAt).toBe("2026-08-20");
    expect(result.entries[0]?.publishedAt).toBe("2026-08-20");
    expect(result.entries[0]?.addresses).toEqual(["Havana, Cuba"]);
  });

  test.each([
    [
      "wrong column count",
      enc('36,"AEROCARIBBEAN AIRLINES",-0- ,"CUBA"\n'),
      "SDN: line 1: expected 12 columns, found 4",
    ],
    [
      "header on a raw file",
      enc(`ent_num,SDN_Name,a,b,c,d,e,f,g,h,i,j\n${SDN_RAW}`),
      'SDN: line 1: ent_num "ent_num"',
    ],
    ["empty file", enc(""), "SDN: line 1: file is empty"],
    ["binary junk", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), "SDN: line 1: binary content"],
    [
      "unknown type",
      enc('1,"X",robot,"P",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n'),
      'unknown SDN type "robot"',
    ],
    ["bad JSON", enc('{"entries": [}'), "SDN: line 1: invalid JSON"],
    ["JSON without entries", enc('{"data": []}'), 'expected an object with an "entries" array'],
    ["JSON entry without a name", enc('{"entries": [{"uid": 1}]}'), "entry 1): missing name"],
    [
      "CSV with a short row",
      enc("uid,name,type,programs,alternate_names\n1,X\n"),
      "SDN: line 2: expected 5 columns",
    ],
  ])("malformed SDN: %s", (_case, bytes, message) => {
    expect(() => parseOfacSdn(bytes)).toThrow(message);
  });

  test("malformed ALT and ADD files are refused", () => {
    expect(() => parseOfacSdn(latin1(SDN_RAW), latin1(ADD_RAW))).toThrow(
      "ALT: line 1: expected 5 columns, found 6",
    );
    expect(() => parseOfacSdn(latin1(SDN_RAW), undefined, latin1(ALT_RAW))).toThrow(
      "ADD: line 1: expected 6 columns",
    );
  });
});

const CSL_HEADER =
  "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
const cslRow = (fields: Record<string, string>): string =>
  CSL_HEADER.split(",")
    .map((column) => `"${(fields[column] ?? "").replace(/"/g, '""')}"`)
    .join(",");

describe("parseCsl", () => {
  test("source lists, multi-value cells, countries, merged DPL rows", () => {
    const csv = [
      CSL_HEADER,
      cslRow({
        _id: "a1",
        source: "Entity List (EL) - Bureau of Industry and Security",
        name: "Gulf Gate Shipping Co. LLC",
        addresses: "No. 508, Almaktoum Road, Dubai, AE; P.O. Box 39948, Dubai, AE",
        alt_names: "GGS; Gulf Gate",
        start_date: "2016-06-21",
      }),
      cslRow({
        source: "Specially Designated Nationals (SDN) - Treasury Department",
        entity_number: "8124",
        type: "Entity",
        programs: "CUBA; CUBA-EO14404",
        name: "2904977 CANADA, INC.",
        addresses: "818 rue Sherbrooke East, Montreal, Quebec, H2L 1K3, CA",
        citizenships: "CU",
      }),
      cslRow({
        source: "Denied Persons List (DPL) - Bureau of Industry and Security",
        name: "Gunther Migeotte",
        addresses: "Titangata 1, Fredrikstad, NO",
        start_date: "2010-06-29",
      }),
      cslRow({
        source: "Denied Persons List (DPL) - Bureau of Industry and Security",
        name: "Gunther Migeotte",
        addresses: "H Evjes vei 8A, Gressvik, NO",
        start_date: "2010-06-29",
      }),
      cslRow({
        source: "Nonproliferation Sanctions (ISN) - State Department",
        name: "Sinobright Import and Export Company; and any successor, sub-unit, or subsidiary thereof",
      }),
    ].join("\n");
    const result = parseCsl(enc(csv));
    expect(result.rowCount).toBe(5);
    expect(result.entries).toHaveLength(4);
    const [gulf, canada, gunther, sino] = result.entries;
    expect(gulf).toMatchObject({
      sourceList: "CSL:EL",
      sourceId: "a1",
      aliases: ["GGS", "Gulf Gate"],
      countries: ["AE"],
      publishedAt: "2016-06-21",
    });
    expect(gulf?.addresses).toHaveLength(2);
    expect(canada).toMatchObject({
      sourceList: "CSL:SDN",
      sourceId: "8124",
      programs: ["CUBA", "CUBA-EO14404"],
    });
    expect(canada?.countries).toEqual(["CA", "CU"]);
    expect(gunther?.sourceList).toBe("CSL:DPL");
    expect(gunther?.entityType).toBe("individual");
    expect(gunther?.addresses).toHaveLength(2);
    expect(sino?.name).toBe("Sinobright Import and Export Company");
    expect(result.publishedAt).toBe("2016-06-21");
  });

  test("source codes", () => {
    expect(cslSourceList("Military End User (MEU) List - Bureau of Industry and Security")).toBe("CSL:MEU");
    expect(cslSourceList("Something without a code")).toBe("CSL:Something without a code");
  });

  test.each([
    ["missing header column", "source,name\nX,Y\n", 'CSL: line 1: missing column "entity_number"'],
    ["short row", `${CSL_HEADER}\n"EL","1"\n`, "CSL: line 2: expected 29 columns, found 2"],
    ["empty name", `${CSL_HEADER}\n${cslRow({ source: "Entity List (EL)" })}\n`, "CSL: line 2: empty name"],
    ["empty file", "", "CSL: line 1: file is empty"],
  ])("malformed CSL: %s", (_case, text, message) => {
    expect(() => parseCsl(enc(text))).toThrow(message);
  });
});

const DPL_HEADER =
  '"Name"\t"Street_Address"\t"City"\t"State"\t"Country"\t"Postal_Code"\t"Effective_Date"\t"Expiration_Date"\t"Standard_Order"\t"Last_Update"\t"Action"\t"FR_Citation"';
const dplRow = (...fields: string[]): string => fields.map((f) => `"${f}"`).join("\t");

describe("parseDpl", () => {
  test("rows of one person are merged; US state implies US", () => {
    const text = [
      DPL_HEADER,
      dplRow(
        "ABDULAH AL NASSER",
        "605 TRAIL LAKE DRIVE",
        "RICHARDSON",
        "TX",
        "US",
        "75081",
        "03/04/2002",
        "06/29/2056",
        "Y",
        "2006-07-11",
        "50 YEAR DENIAL",
        "67 F.R. 56530",
      ),
      dplRow(
        "ABDULAH AL NASSER",
        "908 AUDELIA ROAD",
        "RICHARDSON",
        "TX",
        "US",
        "75081",
        "03/04/2002",
        "06/29/2056",
        "Y",
        "2006-07-11",
        "50 YEAR DENIAL",
        "67 F.R. 56530",
      ),
      dplRow(
        "AARON ABRAHAM VILLA",
        "3415 RIVERA AVENUE",
        "EL PASO",
        "TX",
        "",
        "79905",
        "08/24/2022",
        "01/14/2026",
        "Y",
        "2022-08-29",
        "F.R. NOTICE ADDED",
        "87 F.R. 52741",
      ),
      dplRow(
        "ARROWTRONIC, LLC",
        "1 MAIN ST",
        "DUBAI",
        "",
        "AE",
        "",
        "01/01/2020",
        "01/01/2030",
        "Y",
        "3017-08-22",
        "TYPO",
        "",
      ),
    ].join("\n");
    const result = parseDpl(enc(text));
    expect(result.rowCount).toBe(4);
    expect(result.entries).toHaveLength(3);
    const [nasser, villa, arrow] = result.entries;
    expect(nasser).toMatchObject({
      sourceList: "BIS DPL",
      entityType: "individual",
      countries: ["US"],
      publishedAt: "2002-03-04",
    });
    expect(nasser?.addresses).toHaveLength(2);
    expect(villa?.countries).toEqual(["US"]);
    expect(villa?.remarks).toContain("expires 2026-01-14");
    expect(arrow?.entityType).toBe("entity");
    // The impossible Last_Update 3017-08-22 is not taken as the list date.
    expect(result.publishedAt).toBe("2022-08-29");
  });

  test.each([
    ["wrong header", "Name\tAddress\n", "DPL: line 1: expected header"],
    ["short row", `${DPL_HEADER}\n"X"\t"Y"\n`, "DPL: line 2: expected 12 columns, found 2"],
    [
      "empty name",
      `${DPL_HEADER}\n${dplRow("", "", "", "", "", "", "", "", "", "", "", "")}\n`,
      "DPL: line 2: empty name",
    ],
  ])("malformed DPL: %s", (_case, text, message) => {
    expect(() => parseDpl(enc(text))).toThrow(message);
  });
});

describe("real list files", () => {
  const dir = screeningDataDir();
  const read = (pattern: RegExp): Buffer => {
    const file = findListFile(dir, pattern);
    if (file === undefined) throw new Error(`no file matching ${pattern} in ${dir}`);
    return readFileSync(file);
  };

  test("OFAC SDN JSON (newest) with ADD addresses", () => {
    const result = parseOfacSdn(read(/^ofac_sdn_\d.*\.json$/), undefined, read(/^ofac_add_raw.*\.csv$/));
    expect(result.entries.length).toBeGreaterThan(19000);
    expect(result.publishedAt).toBe("2026-08-20");
    const rosneft = result.entries.find((e) => e.sourceId === "17022");
    expect(rosneft?.aliases).toContain("ROSNEFT");
    expect(result.entries.find((e) => e.sourceId === "306")?.addresses.length).toBeGreaterThan(0);
    expect(result.entries.filter((e) => e.entityType === "vessel").length).toBeGreaterThan(1000);
  });

  test("OFAC SDN CSV matches the JSON", () => {
    const csv = parseOfacSdn(read(/^ofac_sdn_\d.*\.csv$/));
    const json = parseOfacSdn(read(/^ofac_sdn_\d.*\.json$/));
    expect(csv.entries.length).toBe(json.entries.length);
    expect(csv.entries[100]?.name).toBe(json.entries[100]?.name);
  });

  test("raw OFAC SDN 2024 with ALT and ADD", () => {
    const result = parseOfacSdn(
      read(/^ofac_sdn_raw.*\.csv$/),
      read(/^ofac_alt_raw.*\.csv$/),
      read(/^ofac_add_raw.*\.csv$/),
    );
    expect(result.rowCount).toBeGreaterThan(14000);
    const bank = result.entries.find((e) => e.sourceId === "306");
    expect(bank?.name).toBe("BANCO NACIONAL DE CUBA");
    expect(bank?.aliases).toContain("NATIONAL BANK OF CUBA");
    expect(result.entries.some((e) => e.remarks?.includes("nationality"))).toBe(true);
  });

  test("BIS DPL", () => {
    const result = parseDpl(read(/^bis_dpl.*\.txt$/));
    expect(result.rowCount).toBe(581);
    expect(result.entries.some((e) => e.name === "AARON ABRAHAM VILLA")).toBe(true);
    expect(result.publishedAt).toBe("2022-09-02");
  });

  test("CSL samples", () => {
    const older = parseCsl(read(/^csl_sample_2019\.csv$/));
    const newer = parseCsl(read(/^csl_sample_2025\.csv$/));
    expect(older.rowCount).toBe(115);
    expect(newer.rowCount).toBe(13);
    expect(older.entries.some((e) => e.name === "2904977 CANADA, INC." && e.sourceList === "CSL:SDN")).toBe(
      true,
    );
    expect(new Set(newer.entries.map((e) => e.sourceList)).size).toBeGreaterThan(8);
  });

  test("a list file given to the wrong parser is refused", () => {
    expect(() => parseCsl(read(/^bis_dpl.*\.txt$/))).toThrow("CSL: line 1: missing column");
    expect(() => parseDpl(read(/^csl_sample_2025\.csv$/))).toThrow("DPL: line 1: expected header");
    expect(() => parseOfacSdn(read(/^ofac_add_raw.*\.csv$/))).toThrow(
      "SDN: line 1: expected 12 columns, found 6",
    );
  });

  test("the data folder can be overridden", () => {
    expect(join(dir, "x")).toContain(dir);
  });
});
