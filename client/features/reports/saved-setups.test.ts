import { describe, expect, test } from "bun:test";
import {
  configFromSetup,
  deleteSetup,
  isConfigured,
  readSetups,
  SAVED_REPORTS_KEY,
  saveSetup,
  setupNameError,
} from "./saved-setups";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  };
}

describe("saved report setups", () => {
  test("are stored under saved-report-data as name → {columns, rows} plus the rest of the config", () => {
    const storage = memoryStorage();
    saveSetup(storage, "  By country  ", {
      plugin: "Y Bar",
      group_by: ["Destination country"],
      split_by: ["Status"],
      columns: ["Extended value"],
      filter: [["Carrier", "==", "DHL"]],
      settings: true,
    });
    const stored = JSON.parse(storage.items.get(SAVED_REPORTS_KEY)!);
    expect(Object.keys(stored)).toEqual(["By country"]);
    expect(stored["By country"].rows).toEqual(["Destination country"]);
    expect(stored["By country"].columns).toEqual(["Status"]);
    expect(stored["By country"].config).toEqual({
      plugin: "Y Bar",
      columns: ["Extended value"],
      filter: [["Carrier", "==", "DHL"]],
    });
    // No viewer version: written as the old screen wrote it, so the chart opens as the grid.
    expect(configFromSetup(readSetups(storage)["By country"])).toMatchObject({
      plugin: "Datagrid",
      group_by: ["Destination country"],
      split_by: ["Status"],
    });
  });

  test("a setup saved by the Perspective 3.8 screen loads in the 5.x viewer's format", () => {
    // As the 3.8 screen stored it (viewer.save() less settings and theme).
    const storage = memoryStorage({
      [SAVED_REPORTS_KEY]: JSON.stringify({
        "Bars by carrier": {
          rows: ["Carrier"],
          columns: ["Status"],
          config: {
            version: "3.8.0",
            plugin: "Y Bar",
            plugin_config: {},
            columns_config: { Quantity: { number_fg_mode: "bar" } },
            title: null,
            columns: ["Quantity", null],
            filter: [["Status", "!=", "DELIVERED"]],
            sort: [["Quantity", "desc"]],
            expressions: ['//Double\n"Quantity" * 2'],
            aggregates: { Quantity: "avg", Product: "distinct count" },
          },
        },
      }),
    });
    expect(configFromSetup(readSetups(storage)["Bars by carrier"])).toEqual({
      plugin: "Datagrid",
      title: null,
      columns: ["Quantity"],
      filter: [["Status", "!=", "DELIVERED"]],
      sort: [["Quantity", "desc"]],
      expressions: { Double: '"Quantity" * 2' },
      aggregates: { Quantity: "avg", Product: "distinct count" },
      group_by: ["Carrier"],
      split_by: ["Status"],
    });
  });

  test("a setup saved by the 5.x viewer loads as saved", () => {
    const config = {
      version: "5.5.1",
      plugin: "Datagrid",
      plugin_config: { edit_mode: "READ_ONLY" },
      columns_config: { Quantity: { number_fg_mode: "bar" } },
      columns: ["Quantity"],
    };
    const storage = memoryStorage();
    saveSetup(storage, "new", { ...config, group_by: ["Carrier"] });
    expect(configFromSetup(readSetups(storage).new)).toEqual({
      ...config,
      group_by: ["Carrier"],
      split_by: [],
    });
  });

  test("setups with only columns and rows still load; corrupt entries are skipped", () => {
    const storage = memoryStorage({
      [SAVED_REPORTS_KEY]: JSON.stringify({ old: { columns: ["Status"], rows: ["Carrier"] }, broken: 42 }),
    });
    const setups = readSetups(storage);
    expect(Object.keys(setups)).toEqual(["old"]);
    expect(configFromSetup(setups.old)).toEqual({ group_by: ["Carrier"], split_by: ["Status"] });
    expect(readSetups(memoryStorage({ [SAVED_REPORTS_KEY]: "{not json" }))).toEqual({});
  });

  test("delete removes only the named setup", () => {
    const storage = memoryStorage();
    saveSetup(storage, "a", { group_by: ["Status"] });
    saveSetup(storage, "b", { split_by: ["Status"] });
    expect(Object.keys(deleteSetup(storage, "a"))).toEqual(["b"]);
    expect(Object.keys(readSetups(storage))).toEqual(["b"]);
  });

  test("names must not be empty and a pivot needs rows or columns to count as configured", () => {
    expect(setupNameError("   ")).toBe("Enter a name for the setup.");
    expect(setupNameError("Q1")).toBeNull();
    expect(isConfigured({ columns: ["Extended value"] })).toBe(false);
    expect(isConfigured({ group_by: ["Status"] })).toBe(true);
    expect(isConfigured({ split_by: ["Status"] })).toBe(true);
    expect(isConfigured(null)).toBe(false);
  });
});
