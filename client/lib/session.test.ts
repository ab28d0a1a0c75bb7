import { describe, expect, test } from "bun:test";
import { safeNext } from "./session";

describe("safeNext", () => {
  test("keeps same-site paths with their query and hash", () => {
    expect(safeNext("/contacts")).toBe("/contacts");
    expect(safeNext("/contacts?page=2#top")).toBe("/contacts?page=2#top");
  });

  test.each([
    ["//evil.test"],
    ["/\t/evil.test"],
    ["/\n/evil.test"],
    ["/\r/evil.test"],
    ["/\\evil.test"],
    ["https://evil.test/"],
    ["javascript:alert(1)"],
    [" /contacts"],
    [""],
  ])("refuses %p, which a URL parser could turn into another origin", (next) => {
    expect(safeNext(next)).toBeUndefined();
  });

  test("refuses what is not a string", () => {
    expect(safeNext(undefined)).toBeUndefined();
    expect(safeNext(["/a"])).toBeUndefined();
  });
});
