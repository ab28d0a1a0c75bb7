import { z } from "zod";

/** Browser storage key of the saved report setups (spec section 3). */
export const SAVED_REPORTS_KEY = "saved-report-data";

/** The part of a Perspective viewer configuration a setup keeps. */
export type TViewerConfig = {
  plugin?: string;
  group_by?: string[];
  split_by?: string[];
  columns?: (string | null)[];
  [key: string]: unknown;
};

/**
 * A saved setup in the spec's shape, a name mapped to its column and row field lists, plus the rest
 * of the viewer configuration (plugin, filters, sorts, aggregates) under `config`. Setups that only
 * have `columns` and `rows` (older ones) still load.
 */
const ZSavedSetup = z.object({
  columns: z.array(z.string()).catch([]),
  rows: z.array(z.string()).catch([]),
  config: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type TSavedSetup = z.infer<typeof ZSavedSetup>;
export type TSavedSetups = Record<string, TSavedSetup>;

type TStorage = Pick<Storage, "getItem" | "setItem">;

/** Every readable setup; a corrupt entry is skipped, a corrupt store reads as empty. */
export function readSetups(storage: TStorage): TSavedSetups {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(SAVED_REPORTS_KEY) ?? "{}");
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const setups: TSavedSetups = {};
  for (const [name, value] of Object.entries(parsed)) {
    const setup = ZSavedSetup.safeParse(value);
    if (setup.success) setups[name] = setup.data;
  }
  return setups;
}

function writeSetups(storage: TStorage, setups: TSavedSetups) {
  storage.setItem(SAVED_REPORTS_KEY, JSON.stringify(setups));
}

/** The spec's rule: a non-empty name (surrounding spaces do not count). */
export function setupNameError(name: string): string | null {
  return name.trim() ? null : "Enter a name for the setup.";
}

/** A pivot is configured when it has row or column fields. */
export function isConfigured(config: TViewerConfig | null | undefined): boolean {
  return Boolean(config?.group_by?.length || config?.split_by?.length);
}

/** The setup to store for a viewer configuration: rows = group_by, columns = split_by. */
export function setupFromConfig(config: TViewerConfig): TSavedSetup {
  const { group_by = [], split_by = [], ...rest } = config;
  // Settings panel state and theme are the viewer's chrome, not the report.
  const { settings: _settings, theme: _theme, ...kept } = rest;
  return { rows: [...group_by], columns: [...split_by], config: kept };
}

/** The viewer configuration to restore a setup; a setup without `config` keeps the current rest. */
export function configFromSetup(setup: TSavedSetup): TViewerConfig {
  return { ...(setup.config ?? {}), group_by: setup.rows, split_by: setup.columns };
}

/** Saves (or replaces) a named setup and returns the new list. */
export function saveSetup(storage: TStorage, name: string, config: TViewerConfig): TSavedSetups {
  const setups = readSetups(storage);
  setups[name.trim()] = setupFromConfig(config);
  writeSetups(storage, setups);
  return setups;
}

/** Deletes a named setup and returns the new list. */
export function deleteSetup(storage: TStorage, name: string): TSavedSetups {
  const setups = readSetups(storage);
  delete setups[name];
  writeSetups(storage, setups);
  return setups;
}
