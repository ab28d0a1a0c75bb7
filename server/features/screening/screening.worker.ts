// Screens batches of names on the second core for big jobs (a contacts import, a re-screen of every
// contact): this thread opens its own connection, builds its own index of the active lists and
// answers each batch with the outcomes, so the main thread only reads and writes the database. The
// name half of the work is shared by every contact of the same name (one cache for the worker's life).
import { openDatabase } from "../../../db/client";
import { buildIndex, type NameHit, type ScreeningIndex, scoreName, screenWithHits } from "./engine";
import { loadOrBuildIndex } from "./index-cache";
import { activeEntriesKey, activeLists, loadActiveEntries, type TListVersion } from "./lists.service";
import { compactMatches, type TOutcome, type TWorkerReply, type TWorkerRequest } from "./screening-worker";

declare const self: Worker;

/** More names than this in the cache and it starts again, so memory stays bounded on huge jobs. */
const NAME_CACHE_LIMIT = 200_000;

let index: ScreeningIndex | null = null;
let lists: TListVersion[] = [];
let threshold = 0.85;
const hitsByName = new Map<string, NameHit[]>();
// Messages are handled strictly in order, after the index is ready.
let queue: Promise<void> = Promise.resolve();

const hitsOf = (name: string): NameHit[] => {
  let hits = hitsByName.get(name);
  if (!hits) {
    if (hitsByName.size >= NAME_CACHE_LIMIT) hitsByName.clear();
    hits = scoreName(index as ScreeningIndex, name, { threshold, top: 5 });
    hitsByName.set(name, hits);
  }
  return hits;
};

function handle(message: TWorkerRequest): void {
  if (message.type === "prime") {
    if (index) for (const name of message.names) hitsOf(name);
    return;
  }
  if (message.type === "screen") {
    const outcomes: (TOutcome | null)[] = message.queries.map(([name, address, country]) => {
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
    });
    self.postMessage({ type: "screened", id: message.id, outcomes } satisfies TWorkerReply);
  }
}

self.onmessage = (event: MessageEvent<TWorkerRequest>) => {
  const message = event.data;
  if (message.type === "init") {
    threshold = message.threshold;
    queue = (async () => {
      const database = await openDatabase(message.url, message.authToken);
      try {
        lists = await activeLists(database.db);
        if (lists.length) {
          const { db } = database;
          index = message.cacheDir
            ? (
                await loadOrBuildIndex(message.cacheDir, await activeEntriesKey(db, lists), () =>
                  loadActiveEntries(db),
                )
              ).index
            : buildIndex(await loadActiveEntries(db));
        }
        // The build leaves much garbage behind; collected now, the resident size stays near the index.
        Bun.gc(true);
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
