import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestContext, type TTestContext } from "../../test/setup";
import {
  buildIndex,
  type ListEntry,
  loadBundledLists,
  type ScreeningIndex,
  screen,
  screeningDataDir,
} from "./engine";
import {
  ENGINE_SOURCES,
  engineSourceHash,
  entriesKey,
  indexKey,
  packIndex,
  unpackIndex,
} from "./engine/index-pack";
import { normalizeName } from "./engine/normalize";
import { prepareTokens } from "./engine/score";
import { nameAt, refsOf } from "./engine/screening-index";
import { buildIndexInWorker, indexCacheFile, loadOrBuildIndex } from "./index-cache";
import {
  activeEntriesKey,
  loadActiveEntries,
  loadOrBuildActiveIndex,
  parseListFiles,
  ScreeningRegistry,
  storeList,
} from "./lists.service";

// The built index kept on disk must screen exactly as a freshly built one, and must never be used
// for other entries, another engine, or a damaged file.

const all = loadBundledLists(screeningDataDir()).entries;
// Every twelfth entry: all list kinds, vessels and acronyms included, built in a fraction of the time.
const entries = all.filter((_, i) => i % 12 === 0);

/** Queries touching every path: list names as written, with a typo, aliases, acronyms, near misses. */
const QUERIES = [
  ...entries
    .slice(0, 120)
    .flatMap((e) => [e.name, `${e.name.slice(0, 3)}${e.name.slice(4)}`, ...e.aliases.slice(0, 1)]),
  "Islamic Revolutionary Guard Corps",
  "IRISL",
  "Johnson Precision Machining LLC",
  "Rossi Timber S.A.",
  "Bank Melli Iran",
];

function results(index: ScreeningIndex): string {
  return JSON.stringify(
    QUERIES.map((name) => screen(index, { name, country: "IR", address: "Tehran, Iran" }, { minScore: 0.5 })),
  );
}

/** The cache over entries given directly, as the benchmarks use it. */
const cached = (list: readonly ListEntry[], folder = dir) =>
  loadOrBuildIndex(folder, entriesKey(list), () => list);
const fileOf = (list: readonly ListEntry[]) => indexCacheFile(dir, entriesKey(list));

function keyOf(list: readonly ListEntry[]): string {
  const key = indexKey(entriesKey(list));
  if (key === undefined) throw new Error("the engine's fingerprint is unknown");
  return key;
}

let dir: string;
let expected: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "tradewinds-index-cache-"));
  expected = results(buildIndex(entries));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cacheFiles = (folder: string) => readdirSync(folder).filter((f) => f.startsWith("screening-index-"));

describe("screening index cache", () => {
  test("the first process builds and stores the index; the next loads it and screens identically", async () => {
    // The comparison means something: the sample has failures and near misses.
    expect(expected).toContain('"status":"failed"');
    expect(expected).toContain('"status":"passed"');
    const first = await cached(entries);
    expect(first.loaded).toBe(false);
    expect(existsSync(fileOf(entries))).toBe(true);
    expect(results(first.index)).toBe(expected);
    const second = await cached(entries);
    expect(second.loaded).toBe(true);
    expect(results(second.index)).toBe(expected);
    expect(second.index.stats).toEqual(first.index.stats);
    // The entries come with the index, as the lists wrote them.
    expect(second.index.entries.length).toBe(entries.length);
    for (let e = 0; e < entries.length; e += 97)
      expect(second.index.entries.at(e)).toEqual(entries[e] as ListEntry);
  }, 60_000);

  test("a loaded index is a view of its file: it screens on when the file is replaced or removed", async () => {
    await cached(entries);
    const loaded = await cached(entries);
    expect(loaded.loaded).toBe(true);
    // What writers do (a whole new file renamed over the old one), then what a cleanup does.
    const file = fileOf(entries);
    const replacement = `${file}.test.tmp`;
    writeFileSync(replacement, Buffer.alloc(readFileSync(file).length, 0x5a));
    renameSync(replacement, file);
    expect(results(loaded.index)).toBe(expected);
    // The garbage is not taken for an index: it is built and renamed over again.
    expect((await cached(entries)).loaded).toBe(false);
    expect(results(loaded.index)).toBe(expected);
    rmSync(file);
    expect(results(loaded.index)).toBe(expected);
  }, 60_000);

  test("changed entries are built again, never served from the older file, which is removed", async () => {
    await cached(entries);
    const changed: ListEntry[] = entries.map((e, i) =>
      i === 5 ? { ...e, aliases: [...e.aliases, "Zyxwar Quantum Holdings"] } : e,
    );
    const reordered = [entries[1] as ListEntry, entries[0] as ListEntry, ...entries.slice(2)];
    for (const other of [changed, reordered]) {
      expect(fileOf(other)).not.toBe(fileOf(entries));
      const { index, loaded } = await cached(other);
      expect(loaded).toBe(false);
      expect(results(index)).toBe(results(buildIndex(other)));
      expect(cacheFiles(dir)).toEqual([path.basename(fileOf(other))]);
    }
    const hit = screen((await cached(changed)).index, { name: "Zyxwar Quantum Holdings" });
    expect(hit.status).toBe("failed");
    expect(hit.matches[0]?.entry.sourceId).toBe(entries[5]?.sourceId);
  }, 60_000);

  test("a damaged, truncated or foreign file is built again and rewritten", async () => {
    const { index } = await cached(entries);
    const file = fileOf(entries);
    const good = readFileSync(file);
    const other = entries.slice(1);
    const damaged: Record<string, Uint8Array> = {
      empty: new Uint8Array(0),
      garbage: new TextEncoder().encode("not an index at all"),
      truncated: good.subarray(0, Math.floor(good.length / 2)),
      "one byte short": good.subarray(0, good.length - 1),
      "a bit flipped in the arrays": (() => {
        const copy = new Uint8Array(good);
        copy[copy.length - 1000] = (copy[copy.length - 1000] as number) ^ 1;
        return copy;
      })(),
      "a byte changed in the header": (() => {
        const copy = new Uint8Array(good);
        copy[20] = (copy[20] as number) ^ 0x20;
        return copy;
      })(),
      // Still a whole, well-formed index of this key: only the hash tells it from the file written.
      "a letter changed in the vocabulary": (() => {
        const copy = new Uint8Array(good);
        const at = good.indexOf(Buffer.from(index.vocabKeys.slice(0, 3).join("")));
        expect(at).toBeGreaterThan(20);
        expect(String.fromCharCode(copy[at] as number)).toMatch(/[a-z]/);
        copy[at] = copy[at] === 0x71 ? 0x7a : 0x71;
        return copy;
      })(),
      // A whole, valid index of other entries under this file's name.
      "another key": packIndex(buildIndex(other), keyOf(other)),
    };
    for (const [what, bytes] of Object.entries(damaged)) {
      writeFileSync(file, bytes);
      const again = await cached(entries);
      expect({ what, loaded: again.loaded }).toEqual({ what, loaded: false });
      expect(results(again.index)).toBe(expected);
      // Written again whole: the next process loads it.
      expect((await cached(entries)).loaded).toBe(true);
    }
    expect(unpackIndex(packIndex(index, "some other key"), keyOf(entries))).toBeUndefined();
  }, 120_000);

  test("a packed name is read back exactly as prepareTokens prepares it, whatever fields it has", () => {
    const index = buildIndex(entries);
    expect(index.stats.names).toBeGreaterThan(1000);
    for (let n = 0; n < index.stats.names; n++) {
      // A name is created by the first spelling that gives it: the first of its refs.
      const [first] = refsOf(index, n);
      const tokens = normalizeName(first?.display ?? "").tokens;
      expect(nameAt(index, n)).toEqual(prepareTokens(tokens, index.uniformNames[n] === 1));
    }
  });

  test("the key follows the engine's code: a changed module gives another", () => {
    const engineDir = path.join(import.meta.dir, "engine");
    const copy = path.join(dir, "engine-copy");
    mkdirSync(copy);
    for (const file of ENGINE_SOURCES) copyFileSync(path.join(engineDir, file), path.join(copy, file));
    expect(engineSourceHash(copy)).toBe(engineSourceHash(engineDir));
    expect(keyOf(entries)).toContain(engineSourceHash(engineDir));
    writeFileSync(path.join(copy, "lexicon.ts"), `${readFileSync(path.join(copy, "lexicon.ts"), "utf8")}\n`);
    expect(engineSourceHash(copy)).not.toBe(engineSourceHash(engineDir));
  });

  test("a write removes older indexes and stale temporary files, not those of other processes", async () => {
    const folder = path.join(dir, "shared");
    mkdirSync(folder);
    const file = (name: string, minutesAgo: number) => {
      const at = path.join(folder, `screening-index-${name}`);
      writeFileSync(at, "x");
      const time = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(at, time, time);
      return name;
    };
    const older = [file("older.bin", 1), file("stale.bin.1.abc.tmp", 30)];
    // Another process writing its index now, and one that stored another key after this build began.
    const others = [file("writing.bin.2.def.tmp", 0), file("newer.bin", -1)];
    const { loaded } = await cached(entries, folder);
    expect(loaded).toBe(false);
    const left = cacheFiles(folder);
    expect(left).toContain(path.basename(fileOf(entries)));
    for (const name of others) expect(left).toContain(`screening-index-${name}`);
    for (const name of older) expect(left).not.toContain(`screening-index-${name}`);
  }, 60_000);

  test("a build worker that ends without an answer is not waited for", async () => {
    const silent = path.join(dir, "silent.worker.ts");
    writeFileSync(silent, "self.onmessage = () => process.exit(0);\n");
    const folder = path.join(dir, "silent-worker");
    const built = await buildIndexInWorker(folder, entriesKey(entries), entries, silent);
    expect(built.error).toBe("the worker ended without an answer");
    expect(existsSync(fileOf(entries).replace(dir, folder))).toBe(false);
  }, 20_000);

  test("a write that fails leaves no temporary file behind", async () => {
    const folder = path.join(dir, "failed-write");
    // The stored file's name taken by a folder that is not empty: the temporary file is written
    // whole, then cannot be renamed into place (as a full disk fails the write itself).
    mkdirSync(path.join(fileOf(entries).replace(dir, folder), "in-the-way"), { recursive: true });
    const { index, loaded } = await cached(entries, folder);
    expect(loaded).toBe(false);
    expect(results(index)).toBe(expected);
    expect(readdirSync(folder).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  }, 60_000);

  test("the string lists come back exactly, accents and characters beyond the BMP included", () => {
    // Names in scripts and symbols the lists may hold: one pair of UTF-16 units each for the last two.
    const named = entries.slice(0, 40).map((e, i) => ({
      ...e,
      name: [`Société Générale ${i}`, `Ōsaka Kōgyō ${i}`, `Ünal 𝐓rading ${i}`, `Ἀθῆναι 🚢 ${i}`][
        i % 4
      ] as string,
    }));
    const index = buildIndex(named);
    const loaded = unpackIndex(packIndex(index, keyOf(named)), keyOf(named));
    expect(loaded?.strings).toEqual(index.strings);
    expect(loaded?.vocabKeys).toEqual(index.vocabKeys);
    expect([...(loaded?.acronyms ?? [])]).toEqual([...index.acronyms]);
  });

  test("an index holding a string UTF-8 cannot carry (a lone surrogate) is used as built, not stored", async () => {
    const broken = [{ ...(entries[0] as ListEntry), name: "Broken \uD800 Trading" }, ...entries.slice(1, 60)];
    expect(() => packIndex(buildIndex(broken), keyOf(broken))).toThrow("not well-formed");
    const { index, loaded } = await cached(broken);
    expect(loaded).toBe(false);
    expect(index.stats.entries).toBe(broken.length);
    expect(existsSync(fileOf(broken))).toBe(false);
  });

  test("a cache folder that cannot be written still gives the index", async () => {
    const blocker = path.join(dir, "a-file");
    writeFileSync(blocker, "x");
    const { index, loaded } = await cached(entries, path.join(blocker, "cache"));
    expect(loaded).toBe(false);
    expect(results(index)).toBe(expected);
  }, 60_000);
});

describe("the registry over a cache folder", () => {
  let ctx: TTestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  }, 120_000);
  afterAll(() => ctx.database.close());

  test("a re-imported list is screened at once, and its index replaces the older one on disk", async () => {
    const cacheDir = path.join(dir, "registry");
    const registry = new ScreeningRegistry(ctx.database.db, { cacheDir });
    const before = await registry.get();
    const [firstFile] = cacheFiles(cacheDir);
    expect(firstFile).toBeDefined();
    expect(screen(before.index, { name: "Brand New Cached Trading Ltd" }).status).toBe("passed");
    const header =
      "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
    const row =
      'x1,Entity List (EL) - Bureau of Industry and Security,,Entity,,Brand New Cached Trading Ltd,,"1 Harbour Road, Hong Kong",,2026-10-01,,,,,,,,,,,,,,,,,,,';
    const parsed = parseListFiles("csl", [
      { name: "consolidated.csv", bytes: new TextEncoder().encode(`${header}\n${row}\n`) },
    ]);
    await storeList(ctx.database.db, "csl", parsed, "consolidated.csv");
    await registry.rebuild();
    const after = await registry.get();
    expect(screen(after.index, { name: "Brand New Cached Trading Ltd" }).status).toBe("failed");
    const files = cacheFiles(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe(firstFile);
    // Another process over the same data folder loads what this one stored.
    const again = await loadOrBuildIndex(cacheDir, await activeEntriesKey(ctx.database.db), () => {
      throw new Error("the entries are not read when the index is on disk");
    });
    expect(again.loaded).toBe(true);
    expect(screen(again.index, { name: "Brand New Cached Trading Ltd" }).status).toBe("failed");
  }, 120_000);

  test("the key of the active entries follows how they are read and the migrations applied", async () => {
    const { db } = ctx.database;
    const before = await activeEntriesKey(db);
    // Another reading of the rows (a changed loader) gives another key.
    expect(before).toContain(Bun.hash(loadActiveEntries.toString()).toString(16));
    // A migration that may rewrite the rows gives another key.
    await db.run(
      sql`insert into __drizzle_migrations (hash, created_at) values ('a-data-migration', 99999999999999)`,
    );
    try {
      expect(await activeEntriesKey(db)).not.toBe(before);
    } finally {
      await db.run(sql`delete from __drizzle_migrations where hash = 'a-data-migration'`);
    }
    expect(await activeEntriesKey(db)).toBe(before);
  });

  test("an index whose lists were imported again while its entries were read is not stored", async () => {
    const cacheDir = path.join(dir, "import-meanwhile");
    const before = await activeEntriesKey(ctx.database.db);
    const header =
      "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
    // The CSL again (an import replaces the source whole): the earlier test's row and a new one.
    const rows = [
      'x1,Entity List (EL) - Bureau of Industry and Security,,Entity,,Brand New Cached Trading Ltd,,"1 Harbour Road, Hong Kong",,2026-10-01,,,,,,,,,,,,,,,,,,,',
      'x2,Entity List (EL) - Bureau of Industry and Security,,Entity,,Meanwhile Imported Trading Ltd,,"2 Harbour Road, Hong Kong",,2026-10-02,,,,,,,,,,,,,,,,,,,',
    ];
    const { index } = await loadOrBuildActiveIndex(ctx.database.db, cacheDir, undefined, async (db) => {
      // A list import commits after the key was read and before the entries are.
      const parsed = parseListFiles("csl", [
        { name: "consolidated.csv", bytes: new TextEncoder().encode(`${header}\n${rows.join("\n")}\n`) },
      ]);
      await storeList(db, "csl", parsed, "consolidated.csv");
      return loadActiveEntries(db);
    });
    // This process screens with the newer entries, but does not store them under the older key.
    expect(screen(index, { name: "Meanwhile Imported Trading Ltd" }).status).toBe("failed");
    expect(await activeEntriesKey(ctx.database.db)).not.toBe(before);
    expect(existsSync(cacheDir) ? cacheFiles(cacheDir) : []).toEqual([]);
    // The next read stores the index of the newer entries under their key.
    const { index: next, loaded } = await loadOrBuildActiveIndex(ctx.database.db, cacheDir);
    expect(loaded).toBe(false);
    expect(screen(next, { name: "Meanwhile Imported Trading Ltd" }).status).toBe("failed");
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    // And the one after loads it (a screening worker then skips the collection a build needs).
    expect((await loadOrBuildActiveIndex(ctx.database.db, cacheDir)).loaded).toBe(true);
  }, 120_000);

  test("with no stored index, a worker thread builds and stores it, and this thread reads it", async () => {
    const cacheDir = path.join(dir, "registry-worker");
    const registry = new ScreeningRegistry(ctx.database.db, { cacheDir, buildInWorker: true });
    const { index } = await registry.get();
    expect(registry.lastLoad).toBe("worker");
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(screen(index, { name: "Brand New Cached Trading Ltd" }).status).toBe("failed");
    const thread = new ScreeningRegistry(ctx.database.db, { cacheDir: path.join(dir, "registry-thread") });
    const own = await thread.get();
    expect(thread.lastLoad).toBe("this thread");
    expect(results(index)).toBe(results(own.index));
  }, 120_000);

  test("with no stored index, a child process builds and stores it, and this process maps it", async () => {
    const cacheDir = path.join(dir, "registry-child");
    const self = [process.execPath, path.resolve(import.meta.dir, "../../main.ts")];
    const registry = new ScreeningRegistry(ctx.database.db, { cacheDir, buildCommand: self });
    // The child opens the database this process names in its environment, as the server's does.
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = ctx.env.databaseUrl;
    let index: ScreeningIndex;
    try {
      index = (await registry.get()).index;
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
    expect(registry.childFailure).toBeUndefined();
    expect(registry.lastLoad).toBe("child process");
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(screen(index, { name: "Islamic Revolutionary Guard Corps" }).status).toBe("failed");
    const own = await new ScreeningRegistry(ctx.database.db, {
      cacheDir: path.join(dir, "child-thread"),
    }).get();
    expect(results(index)).toBe(results(own.index));
  }, 120_000);

  test("a build process that fails leaves the build to the worker, and says why", async () => {
    const cacheDir = path.join(dir, "registry-child-fails");
    const registry = new ScreeningRegistry(ctx.database.db, {
      cacheDir,
      buildCommand: [process.execPath, "-e", "console.error('no lists here'); process.exit(3)"],
      buildInWorker: true,
    });
    const { index } = await registry.get();
    expect(registry.childFailure).toContain("no lists here");
    expect(registry.lastLoad).toBe("worker");
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(screen(index, { name: "Islamic Revolutionary Guard Corps" }).status).toBe("failed");
  }, 120_000);

  test("a worker whose index cannot be stored leaves the build to this thread", async () => {
    const blocker = path.join(dir, "not-a-folder");
    writeFileSync(blocker, "x");
    const registry = new ScreeningRegistry(ctx.database.db, {
      cacheDir: path.join(blocker, "cache"),
      buildInWorker: true,
    });
    const { index } = await registry.get();
    expect(registry.lastLoad).toBe("this thread");
    expect(screen(index, { name: "Brand New Cached Trading Ltd" }).status).toBe("failed");
  }, 120_000);
});
