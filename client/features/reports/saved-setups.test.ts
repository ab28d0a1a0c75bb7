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
    expect(configFromSetup(readSetups(storage)["By country"])).toMatchObject({
      plugin: "Y Bar",
      group_by: ["Destination country"],
      split_by: ["Status"],
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
