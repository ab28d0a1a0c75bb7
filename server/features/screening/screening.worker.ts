// Screens batches of names on the second core for big jobs (a contacts import, a re-screen of every
// contact): this thread opens its own connection, builds its own index of the active lists and
// answers each batch with the outcomes, so the main thread only reads and writes the database. The
// name half of the work is shared by every contact of the same name (one cache for the worker's life).
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { openDatabase } from "../../../db/client";
import { buildIndex, type NameHit, type ScreeningIndex, scoreNameCached, screenWithHits } from "./engine";
import { activeLists, loadActiveEntries, loadOrBuildActiveIndex, type TListVersion } from "./lists.service";
import {
  compactMatches,
  type TOutcome,
  type TQuery,
  type TWorkerReply,
  type TWorkerRequest,
} from "./screening-worker";

declare const self: Worker;

/** More names than this in the cache and it starts again, so memory stays bounded on huge jobs. */
const NAME_CACHE_LIMIT = 200_000;

let index: ScreeningIndex | null = null;
let lists: TListVersion[] = [];
let threshold = 0.85;
/** Hits by nameHitsKey: names that differ only in legal form, case or punctuation are scored once. */
const hitsByName = new Map<string, NameHit[]>();
// Messages are handled strictly in order, after the index is ready.
let queue: Promise<void> = Promise.resolve();

/** Names scored (not found in the cache) since the last "outcomes" reply. */
const scoring = { scored: 0 };
const hitsOf = (name: string): NameHit[] =>
  scoreNameCached(
    hitsByName,
    index as ScreeningIndex,
    name,
    { threshold, top: 5 },
    NAME_CACHE_LIMIT,
    scoring,
  );

/**
 * Names handed over by `prime`, not scored yet. They are scored in slices between messages, so a
 * `screen` request never waits behind names primed after its own: the caller records a chunk as
 * soon as that chunk's names are scored, while the rest of an import's names are still being scored.
 */
let backlog: string[] = [];
let backlogAt = 0;
let isDraining = false;
/** Longest stretch of primed scoring before looking at the messages that came in meanwhile. */
const PRIME_SLICE_MS = 15;

/**
 * Submitted queries (an import's rows, sent as they are parsed), not screened yet. Screened before
 * primed names, in slices like them; each slice's outcomes go back in one message, in order.
 */
let queries: TQuery[] = [];
let queriesAt = 0;

function outcomeOf(name: string, address: string, country: string | undefined): TOutcome | null {
  const hits = hitsOf(name);
  // Most names come near no list entry: they pass with nothing to show, sent as null.
  if (!hits.length) return null;
  const result = screenWithHits(
    index as ScreeningIndex,
    hits,
    { name, address, country },
    { threshold, top: 5 },
  );
  return {
    status: result.status,
    multiple: result.multiple,
    bestScore: result.bestScore,
    matches: compactMatches(result),
  };
}

function drainBacklog(): void {
  isDraining = false;
  if (!index) return;
  const started = performance.now();
  if (queriesAt < queries.length) {
    const outcomes: (TOutcome | null)[] = [];
    while (queriesAt < queries.length) {
      const [name, address, country] = queries[queriesAt++] as TQuery;
      outcomes.push(outcomeOf(name, address, country));
      if (performance.now() - started > PRIME_SLICE_MS) break;
    }
    if (queriesAt >= queries.length) {
      queries = [];
      queriesAt = 0;
    }
    self.postMessage({ type: "outcomes", outcomes, scored: scoring.scored } satisfies TWorkerReply);
    scoring.scored = 0;
    if (queriesAt < queries.length || backlogAt < backlog.length) scheduleDrain();
    return;
  }
  while (backlogAt < backlog.length) {
    hitsOf(backlog[backlogAt++] as string);
    if (performance.now() - started > PRIME_SLICE_MS) break;
  }
  if (backlogAt < backlog.length) scheduleDrain();
  else {
    backlog = [];
    backlogAt = 0;
  }
}

function scheduleDrain(): void {
  if (isDraining) return;
  isDraining = true;
  setTimeout(drainBacklog, 0);
}

function handle(message: TWorkerRequest): void {
  if (message.type === "prime") {
    if (!index) return;
    for (const name of message.names) backlog.push(name);
    scheduleDrain();
    return;
  }
  if (message.type === "submit") {
    if (!index) {
      // No lists: every query passes with nothing to show (the caller records nothing without lists).
      self.postMessage({
        type: "outcomes",
        outcomes: message.queries.map(() => null),
        scored: 0,
      } satisfies TWorkerReply);
      return;
    }
    for (const query of message.queries) queries.push(query);
    scheduleDrain();
    return;
  }
  if (message.type === "screen") {
    const outcomes: (TOutcome | null)[] = message.queries.map(([name, address, country]) =>
      outcomeOf(name, address, country),
    );
    self.postMessage({
      type: "screened",
      id: message.id,
      outcomes,
      waiting: backlog.length - backlogAt,
    } satisfies TWorkerReply);
  }
}

/**
 * Lowers this thread's scheduling priority (nice 10; Linux schedules threads by their own id), so a
 * server's event loop and an import's thread win the cores when both want them: with the index
 * build beside a 100,000-row upload, /api/health waited up to 0.7 s instead of 0.1 s on a busy
 * machine. Elsewhere, or where not permitted, the thread keeps its priority.
 */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {}
}

self.onmessage = (event: MessageEvent<TWorkerRequest>) => {
  const message = event.data;
  if (message.type === "init") {
    threshold = message.threshold;
    if (message.isBackground) lowerThisThreadsPriority();
    queue = (async () => {
      const database = await openDatabase(message.url, message.authToken);
      try {
        lists = await activeLists(database.db);
        if (lists.length) {
          const { db } = database;
          const { index: ready, loaded } = message.cacheDir
            ? await loadOrBuildActiveIndex(db, message.cacheDir, lists)
            : { index: buildIndex(await loadActiveEntries(db)), loaded: false };
          index = ready;
          // A build leaves much garbage behind; collected now, the resident size stays near the
          // index. A stored index (decision 011) is mapped, not built: nothing to collect.
          if (!loaded) Bun.gc(true);
        }
      } finally {
        database.close();
      }
      self.postMessage({ type: "ready", lists } satisfies TWorkerReply);
    })().catch((error) => {
      self.postMessage({ type: "failed", error: String(error) } satisfies TWorkerReply);
    });
    return;
  }
  queue = queue.then(() => {
    try {
      handle(message);
    } catch (error) {
      if (message.type === "screen")
        self.postMessage({ type: "screened", id: message.id, error: String(error) } satisfies TWorkerReply);
    }
  });
};
