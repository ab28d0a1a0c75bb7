// Builds the screening index on a thread of its own and stores it on disk (see index-cache.ts), for
// a process that found no stored index: the build's seconds of CPU leave the event loop free, and
// its few hundred MB of garbage are given back when this thread ends, so the process keeps only the
// packed index it then reads.
import type { TIndexBuildReply, TIndexBuildRequest } from "./index-build-messages";
import { loadOrBuildIndex } from "./index-cache";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<TIndexBuildRequest>) => {
  const { dir, sourceKey, entries } = event.data;
  try {
    await loadOrBuildIndex(dir, sourceKey, () => entries);
    self.postMessage({ ok: true } satisfies TIndexBuildReply);
  } catch (error) {
    self.postMessage({ ok: false, error: String(error) } satisfies TIndexBuildReply);
  }
};
