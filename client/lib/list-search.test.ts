import { describe, expect, test } from "bun:test";
import {
  listApiQuery,
  listSearchValidator,
  numberOrUndefined,
  oneOfOrUndefined,
  parseListSearch,
  positiveIntOrUndefined,
  shortStringOrUndefined,
  stringOrUndefined,
} from "./list-search";

const columns = [
  { key: "company", sortable: true, filter: "text" as const },
  { key: "partner_type_id", sortable: true },
  { key: "is_sensitive", sortable: true, filter: "boolean" as const },
  { key: "notes" },
];
const validate = listSearchValidator(columns);

describe("a bookmarked list URL opens with what the screen offers", () => {
  test("a declared sort and filters pass through unchanged", () => {
    const search = {
      page: 2,
      sortProp: "company",
      sortDirection: "desc" as const,
      filters: { company: "acme", is_sensitive: "1" },
    };
    expect(validate(search)).toEqual(search);
  });

  test("an unknown or unsortable sortProp falls back to the default sort, direction included", () => {
    expect(validate({ sortProp: "email_1", sortDirection: "desc", page: 3 })).toEqual({ page: 3 });
    expect(validate({ sortProp: "notes", sortDirection: "asc" })).toEqual({});
    expect(validate({ sortProp: "drop table", sortDirection: "sideways" })).toEqual({});
  });

  test("filters on undeclared columns or with values the API refuses are dropped; the rest stay", () => {
    expect(
      validate({
        filters: {
          company: "acme",
          email_1: "x",
          partner_type_id: "2",
          is_sensitive: "yes",
        },
      }),
    ).toEqual({ filters: { company: "acme" } });
    expect(validate({ filters: { company: "   ", is_sensitive: "maybe" } })).toEqual({});
    expect(validate({ filters: { company: "x".repeat(256) } })).toEqual({});
  });

  test("dropped values are set to undefined, so they replace the raw URL's values", () => {
    const cleaned = validate({ sortProp: "email_1", sortDirection: "desc", filters: { email_1: "x" } });
    // As the router does it: the validated search laid over the raw one.
    const merged: Record<string, unknown> = {
      sortProp: "email_1",
      sortDirection: "desc",
      filters: { email_1: "x" },
      ...cleaned,
    };
    expect(merged).toStrictEqual({
      page: undefined,
      sortProp: undefined,
      sortDirection: undefined,
      filters: undefined,
    });
  });

  test("the API query built from the cleaned search has only declared parameters", () => {
    const query = listApiQuery(validate({ sortProp: "nope", filters: { nope: "1", is_sensitive: "0" } }));
    expect(query).toBe("page=1&per_page=10&filters%5Bis_sensitive%5D=0");
  });
});

describe("date-range and choice filters (the shipments list)", () => {
  const validateShipments = listSearchValidator([
    { key: "ship_date", sortable: true, filter: "date" as const },
    { key: "status", filter: "choice" as const },
  ]);

  test("a day, a closed range and ranges open at either end pass", () => {
    for (const value of ["2025-03-01", "2025-01-01..2025-03-31", "2025-01-01..", "..2025-03-31"]) {
      expect(validateShipments({ filters: { ship_date: value } })).toEqual({ filters: { ship_date: value } });
    }
  });

  test("malformed dates and empty ranges are dropped; a status choice passes", () => {
    for (const value of ["..", "03/01/2025", "2025-1-1..", "yesterday"]) {
      expect(validateShipments({ filters: { ship_date: value } })).toEqual({});
    }
    expect(validateShipments({ filters: { status: "in transit" } })).toEqual({
      filters: { status: "in transit" },
    });
    expect(validateShipments({ filters: { status: "'; drop" } })).toEqual({});
  });
});

describe("list parameters are parsed without zod, malformed ones dropped", () => {
  test("page: a whole number ≥ 1, as a number or as text; anything else is the first page", () => {
    expect(parseListSearch({ page: 3 }).page).toBe(3);
    expect(parseListSearch({ page: "4" }).page).toBe(4);
    for (const page of [0, -1, 1.5, "", " ", "x", "2e400", null, true, {}, [2], Number.NaN]) {
      expect(parseListSearch({ page }).page).toBeUndefined();
    }
  });

  test("sortProp must be an identifier, sortDirection asc or desc, filters an object of strings", () => {
    expect(parseListSearch({ sortProp: "company", sortDirection: "desc" })).toEqual({
      sortProp: "company",
      sortDirection: "desc",
    });
    expect(parseListSearch({ sortProp: "drop table", sortDirection: "up" })).toEqual({});
    expect(parseListSearch({ sortProp: 7 })).toEqual({});
    expect(parseListSearch({ filters: { company: "acme" } })).toEqual({ filters: { company: "acme" } });
    expect(parseListSearch({ filters: { company: 1 } })).toEqual({});
    expect(parseListSearch({ filters: ["acme"] })).toEqual({});
    expect(parseListSearch({ filters: "acme" })).toEqual({});
  });

  test("other parameters are left out", () => {
    expect(parseListSearch({ page: 2, evil: "<script>" })).toEqual({ page: 2 });
  });

  test("the small parsers other routes use", () => {
    expect(positiveIntOrUndefined("12")).toBe(12);
    expect(positiveIntOrUndefined("12abc")).toBeUndefined();
    expect(numberOrUndefined("1")).toBe(1);
    expect(numberOrUndefined(1)).toBe(1);
    expect(numberOrUndefined("")).toBeUndefined();
    expect(numberOrUndefined("one")).toBeUndefined();
    expect(stringOrUndefined(5)).toBeUndefined();
    expect(shortStringOrUndefined("abc", 2)).toBeUndefined();
    expect(shortStringOrUndefined("ab", 2)).toBe("ab");
    expect(oneOfOrUndefined("week", ["week", "month"] as const)).toBe("week");
    expect(oneOfOrUndefined("day", ["week", "month"] as const)).toBeUndefined();
  });
});
