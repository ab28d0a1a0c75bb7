import { describe, expect, test } from "bun:test";
import { filterText, rangeText } from "./entity-table";

describe("the list's words", () => {
  test("'x-y of N items' with thousands separators", () => {
    expect(rangeText(1, 0)).toBe("0 items");
    expect(rangeText(2, 25)).toBe("11-20 of 25 items");
    expect(rangeText(5000, 50_000)).toBe("49,991-50,000 of 50,000 items");
  });

  test("a choice filter's chip says the option's label, not its value", () => {
    const columns = [
      {
        key: "screening",
        header: "Screening",
        filter: "choice" as const,
        filterOptions: () => [{ value: "review_due", label: "Review due" }],
      },
    ];
    expect(filterText(columns, "screening", "review_due", {})).toBe("Screening is Review due");
    expect(filterText(columns, "screening", "other", {})).toBe("Screening: other");
  });
});
