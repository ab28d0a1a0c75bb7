import { describe, expect, test } from "bun:test";
import { formatDate, formatDateTime, formatMoney } from "./format";

describe("formatting for display", () => {
  test("dates travel as YYYY-MM-DD and show as MM/DD/YYYY", () => {
    expect(formatDate("2026-03-05")).toBe("03/05/2026");
  });

  test("a moment in a named zone says which zone it is", () => {
    expect(formatDateTime("2026-03-15T14:05:09.000Z", "UTC")).toBe("3/15/26, 2:05:09 PM UTC");
    expect(formatDateTime("2026-03-15T14:05:09.000Z", "America/New_York")).toBe(
      "3/15/26, 10:05:09 AM America/New_York",
    );
    expect(formatDateTime(null)).toBe("");
    expect(formatDateTime("not a date")).toBe("not a date");
  });

  test("money keeps its exact digits with thousands separators", () => {
    expect(formatMoney("1234567.5")).toBe("$1,234,567.50");
    expect(formatMoney("-0.05")).toBe("-$0.05");
    expect(formatMoney("")).toBe("");
  });
});
