// Builds the screening index of a data folder on a thread of its own and stores it on disk (see
// index-cache.ts), for a process that found no stored index: the build's seconds of CPU leave the
// event loop free, and its few hundred MB of garbage are given back when this thread ends, so the
// process keeps only the packed index it then reads.
import { openDatabase } from "../../../db/client";
import { loadOrBuildIndex } from "./index-cache";
import { activeEntriesKey, loadActiveEntries } from "./lists.service";

declare const self: Worker;

export type TIndexBuildRequest = { url: string; authToken?: string; dir: string };
export type TIndexBuildReply = { ok: true; sourceKey: string } | { ok: false; error: string };

self.onmessage = async (event: MessageEvent<TIndexBuildRequest>) => {
  const { url, authToken, dir } = event.data;
  try {
    const database = await openDatabase(url, authToken);
    try {
      const sourceKey = await activeEntriesKey(database.db);
      await loadOrBuildIndex(dir, sourceKey, () => loadActiveEntries(database.db));
      self.postMessage({ ok: true, sourceKey } satisfies TIndexBuildReply);
    } finally {
      database.close();
    }
  } catch (error) {
    self.postMessage({ ok: false, error: String(error) } satisfies TIndexBuildReply);
  }
};
