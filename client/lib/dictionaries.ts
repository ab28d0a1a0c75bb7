import type { TDictionary, TDictionaryName, TDictionaryOption } from "../../db/contracts/dictionary";
import type { TApi } from "./api";

/**
 * Dictionaries (id → label lists) fetched once per page life in the browser and once per request
 * on the server; screens ask for the names they need.
 */
export type TDictionaryCache = {
  load(names: readonly TDictionaryName[]): Promise<TDictionary>;
  /** Forgets workspace lists after a change (e.g. a new contact) so the next load is fresh. */
  forget(names: readonly TDictionaryName[]): void;
};

export function createDictionaryCache(api: TApi): TDictionaryCache {
  const cache = new Map<TDictionaryName, TDictionaryOption[]>();
  return {
    async load(names) {
      const missing = names.filter((n) => !cache.has(n));
      if (missing.length) {
        const query = missing.map((n) => `dropdown_values[]=${n}`).join("&");
        const { data } = await api.get<{ data: TDictionary }>(`/dictionary?${query}`);
        for (const name of missing) cache.set(name, data[name] ?? []);
      }
      return Object.fromEntries(names.map((n) => [n, cache.get(n) ?? []]));
    },
    forget(names) {
      for (const name of names) cache.delete(name);
    },
  };
}

/** The label of an id in a dictionary, or the id itself when it is not there. */
export function labelOf(options: TDictionaryOption[] | undefined, id: unknown): string {
  if (id === null || id === undefined || id === "") return "";
  return options?.find((o) => o.id === Number(id))?.label ?? String(id);
}
