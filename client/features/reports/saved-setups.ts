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
  // Settings panel state and theme are the viewer's chrome, not the report; `table` names the page's
  // own table, which the next page load names afresh.
  const { settings: _settings, theme: _theme, table: _table, ...kept } = rest;
  return { rows: [...group_by], columns: [...split_by], config: kept };
}

/** The grid: the only plugin the screen registers. */
export const GRID_PLUGIN = "Datagrid";

/** The viewer major version that wrote a configuration; configurations from before `version` count as 0. */
function majorVersion(config: Record<string, unknown>): number {
  const version = typeof config.version === "string" ? Number.parseInt(config.version, 10) : 0;
  return Number.isFinite(version) ? version : 0;
}

/**
 * A configuration saved by the Perspective 3.x screen, as the 5.x viewer reads it. The pivot itself
 * (rows, columns, values, filters, sorts, aggregates, expressions) means the same; what changed:
 * - charts came from the d3fc plugin, which the screen no longer loads: a chart setup opens as the
 *   grid over the same pivot (a chart's positional empty value slots are dropped);
 * - `plugin_config` and `columns_config` are the 3.x plugins' own styling keys: dropped, the 5.x grid
 *   starts from its defaults;
 * - expressions saved as 2.x-style strings (`//name\nexpr`) become the name → expression object;
 * - `version` is dropped: the viewer stamps its own on the next save.
 */
export function migrateViewerConfig(config: Record<string, unknown>): TViewerConfig {
  if (majorVersion(config) >= 5) {
    const { table: _table, ...rest } = config;
    return rest as TViewerConfig;
  }
  const { version: _version, plugin_config: _plugin, columns_config: _columns, ...rest } = config;
  const migrated: TViewerConfig = { ...rest };
  if (typeof rest.plugin === "string" && rest.plugin !== GRID_PLUGIN) migrated.plugin = GRID_PLUGIN;
  if (Array.isArray(rest.columns)) {
    migrated.columns = (rest.columns as unknown[]).filter((c): c is string => typeof c === "string");
  }
  if (Array.isArray(rest.expressions)) {
    migrated.expressions = Object.fromEntries(
      (rest.expressions as unknown[])
        .filter((e): e is string => typeof e === "string")
        .map((expression) => {
          const named = /^\/\/\s*(.+)\n([\s\S]*)$/.exec(expression);
          return named ? [named[1]!.trim(), named[2]!] : [expression, expression];
        }),
    );
  }
  return migrated;
}

/**
 * The viewer configuration to restore a setup; a setup without `config` keeps the current rest. A
 * setup saved by the Perspective 3.x screen is converted to the 5.x viewer's format.
 */
export function configFromSetup(setup: TSavedSetup): TViewerConfig {
  const rest = setup.config ? migrateViewerConfig(setup.config) : {};
  return { ...rest, group_by: setup.rows, split_by: setup.columns };
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
