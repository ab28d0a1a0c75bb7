import { describe, expect, test } from "bun:test";
import { formatDate, formatDateTime, formatMoney, formatNumber } from "./format";

describe("formatting for display", () => {
  test("dates travel as YYYY-MM-DD and show as MM/DD/YYYY", () => {
    expect(formatDate("2026-03-05")).toBe("03/05/2026");
  });

  test("a moment in a named zone says which zone it is", () => {
    expect(formatDateTime("2026-03-15T14:05:09.000Z", "UTC")).toBe("03/15/2026, 2:05:09 PM UTC");
    expect(formatDateTime("2026-03-15T14:05:09.000Z", "America/New_York")).toBe(
      "03/15/2026, 10:05:09 AM America/New_York",
    );
    expect(formatDateTime(null)).toBe("");
    expect(formatDateTime("not a date")).toBe("not a date");
  });

  test("numbers get thousands separators and lose trailing-zero noise, exactly", () => {
    expect(formatNumber("1234.500")).toBe("1,234.5");
    expect(formatNumber("2.000")).toBe("2");
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber("-0.000")).toBe("0");
    expect(formatNumber("0.1234")).toBe("0.1234");
    expect(formatNumber("12345678901234567.891")).toBe("12,345,678,901,234,567.891");
    expect(formatNumber("")).toBe("");
    expect(formatNumber("n/a")).toBe("n/a");
  });

  test("money keeps its exact digits with thousands separators", () => {
    expect(formatMoney("1234567.5")).toBe("$1,234,567.50");
    expect(formatMoney("-0.05")).toBe("-$0.05");
    expect(formatMoney("")).toBe("");
  });
  test("money in another currency shows its code, never a dollar sign", () => {
    expect(formatMoney("1234.5", "EUR")).toBe("EUR 1,234.50");
    expect(formatMoney("-0.05", "JPY")).toBe("-JPY 0.05");
    expect(formatMoney("10", "USD")).toBe("$10.00");
  });
});
