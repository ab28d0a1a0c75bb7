// What index-cache.ts sends the index-build worker and what the worker answers, in a file both import.
import type { ListEntry } from "./engine";

export type TIndexBuildRequest = { dir: string; sourceKey: string; entries: ListEntry[] };
export type TIndexBuildReply = { ok: true } | { ok: false; error: string };
