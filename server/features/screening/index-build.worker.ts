// Builds the screening index on a thread of its own and stores it on disk (see index-cache.ts), for
// a process that found no stored index and could not build it in a child process (see
// index-build-child.ts): the build's seconds of CPU leave the event loop free, and most of its few
// hundred MB of garbage go with the thread, so the process keeps mostly the packed index it reads.
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
