import { describe, expect, test } from "bun:test";
import { REPORT_ATTRIBUTES } from "../../../db/contracts/reports";
import {
  configFor,
  defaultConfig,
  firstColumns,
  firstDataUrl,
  forServerPivot,
  initialConfig,
  loadFirstData,
  reportDataUrl,
  summaryOf,
  viewLabels,
} from "./report-view";
import type { TViewerConfig } from "./saved-setups";

describe("the view /reports opens with", () => {
  test("without a link: value per month by status, every column's default aggregate", () => {
    const config = initialConfig(REPORT_ATTRIBUTES, "");
    expect(config).toEqual(defaultConfig(REPORT_ATTRIBUTES));
    expect(config.group_by).toEqual(["Ship month"]);
    expect(config.split_by).toEqual(["Status"]);
    expect(config.columns).toEqual(["Extended value (USD)"]);
    expect((config.aggregates as Record<string, string>)["Shipment total invoice value"]).toBe("avg");
  });

  test("a link names rows, columns and values by label; repeated or comma-separated; unknown ones dropped", () => {
    const config = initialConfig(
      REPORT_ATTRIBUTES,
      "?group_by=Destination%20country&split_by=Status,Nope&group_by=Carrier&columns=Quantity",
    );
    expect(config.group_by).toEqual(["Destination country", "Carrier"]);
    expect(config.split_by).toEqual(["Status"]);
    expect(config.columns).toEqual(["Quantity"]);
    // Values default to the extended value in USD; a link of unknown labels only is the default view.
    expect(initialConfig(REPORT_ATTRIBUTES, "?group_by=Product").columns).toEqual(["Extended value (USD)"]);
    expect(initialConfig(REPORT_ATTRIBUTES, "?group_by=Nope")).toEqual(defaultConfig(REPORT_ATTRIBUTES));
  });
});

describe("the 'by user' view", () => {
  test("a link groups by who created or last edited the shipments, read as a summary", () => {
    const config = initialConfig(
      REPORT_ATTRIBUTES,
      "?group_by=Created%20by&split_by=Last%20edited%20by&columns=Quantity",
    );
    expect(config.group_by).toEqual(["Created by"]);
    expect(config.split_by).toEqual(["Last edited by"]);
    expect(firstDataUrl(config, REPORT_ATTRIBUTES)).toBe(
      "/api/reports-data?format=arrow&names=labels&group_by=created_by,last_edited_by&sum=quantity",
    );
    // The default value (USD, converted per line) loads those columns' lines instead.
    expect(firstDataUrl(initialConfig(REPORT_ATTRIBUTES, "?group_by=Created%20by"), REPORT_ATTRIBUTES)).toBe(
      "/api/reports-data?format=arrow&names=labels&columns=created_by,extended_value_usd",
    );
  });
});

describe("the columns loaded first", () => {
  test("are the ones the view uses: rows, columns, values, filters and sorts, as keys", () => {
    const config = {
      ...defaultConfig(REPORT_ATTRIBUTES),
      filter: [["Carrier", "==", "DHL"]],
      sort: [["Quantity", "desc"]],
    };
    expect([...viewLabels(config)].sort()).toEqual([
      "Carrier",
      "Extended value (USD)",
      "Quantity",
      "Ship month",
      "Status",
    ]);
    expect(firstColumns(config, REPORT_ATTRIBUTES)).toEqual([
      "status",
      "ship_month",
      "carrier",
      "quantity",
      "extended_value_usd",
    ]);
    expect(reportDataUrl(["status", "extended_value"])).toBe(
      "/api/reports-data?format=arrow&names=labels&columns=status,extended_value",
    );
    expect(reportDataUrl(null)).toBe("/api/reports-data?format=arrow&names=labels");
  });

  test("every column at once when the view has expressions or needs them all", () => {
    expect(
      firstColumns(
        { ...defaultConfig(REPORT_ATTRIBUTES), expressions: { x: '"Quantity" * 2' } },
        REPORT_ATTRIBUTES,
      ),
    ).toBeNull();
    expect(firstColumns({ group_by: REPORT_ATTRIBUTES.map((a) => a.label) }, REPORT_ATTRIBUTES)).toBeNull();
  });

  test("a partial table's config keeps only its columns' aggregates", () => {
    const config = configFor(defaultConfig(REPORT_ATTRIBUTES), new Set(["Status", "Extended value (USD)"]));
    expect(config.aggregates).toEqual({ Status: "count", "Extended value (USD)": "sum" });
    expect(config.group_by).toEqual(["Ship month"]);
  });
});

describe("the summary a first view starts from", () => {
  // Sums in the shipments' own currencies: what a summary answers exactly.
  const base: TViewerConfig = { ...defaultConfig(REPORT_ATTRIBUTES), columns: ["Extended value"] };
  test("sums of value by month and status, or destination × status: a summary", () => {
    expect(summaryOf(base, REPORT_ATTRIBUTES)).toEqual({
      groupBy: ["ship_month", "status"],
      sums: ["extended_value"],
    });
    const link = initialConfig(
      REPORT_ATTRIBUTES,
      "?group_by=Destination country&split_by=Status&columns=Extended value,Quantity",
    );
    expect(firstDataUrl(link, REPORT_ATTRIBUTES)).toBe(
      "/api/reports-data?format=arrow&names=labels&group_by=destination_country,status&sum=extended_value,quantity",
    );
    // Sorting by its own columns keeps it.
    expect(summaryOf({ ...base, sort: [["Extended value", "desc"]] }, REPORT_ATTRIBUTES)).not.toBeNull();
  });

  test("anything a summary cannot answer exactly loads the lines instead", () => {
    const aggregates = base.aggregates as Record<string, string>;
    for (const config of [
      // An average, a count, or a column that is not summable.
      { ...base, aggregates: { ...aggregates, "Extended value": "avg" } },
      { ...base, columns: ["Shipment total invoice value"] },
      { ...base, columns: ["Net weight (kg)"] },
      // USD is converted line by line (rounded per line, at each shipment's rate): never a summary.
      defaultConfig(REPORT_ATTRIBUTES),
      { ...base, columns: ["Status"] },
      // Filters, expressions, sorts by other columns, no rows or columns at all.
      { ...base, filter: [["Carrier", "==", "DHL"]] },
      { ...base, expressions: { double: '"Quantity" * 2' } },
      { ...base, sort: [["Carrier", "asc"]] },
      { ...base, group_by: [], split_by: [] },
      // Only columns: Perspective shows one unaggregated row per line, not one per combination.
      { ...base, group_by: [], split_by: ["Status"] },
      { ...base, group_by: ["Extended value"] },
    ]) {
      expect(summaryOf(config, REPORT_ATTRIBUTES)).toBeNull();
      expect(firstDataUrl(config, REPORT_ATTRIBUTES)).not.toContain("group_by");
    }
    expect(firstDataUrl({ ...base, filter: [["Carrier", "==", "DHL"]] }, REPORT_ATTRIBUTES)).toBe(
      reportDataUrl(firstColumns({ ...base, filter: [["Carrier", "==", "DHL"]] }, REPORT_ATTRIBUTES)),
    );
  });
});

describe("the first view's data", () => {
  const base: TViewerConfig = { ...defaultConfig(REPORT_ATTRIBUTES), columns: ["Extended value"] };
  const refused = (status: number) => Object.assign(new Error("refused"), { status });

  test("a summary the server refuses as too large (413) falls back to the same columns' lines", async () => {
    const asked: string[] = [];
    const loaded = await loadFirstData(base, REPORT_ATTRIBUTES, async (url) => {
      asked.push(url);
      if (url.includes("group_by")) throw refused(413);
      return url;
    });
    expect(asked).toEqual([
      firstDataUrl(base, REPORT_ATTRIBUTES),
      reportDataUrl(["status", "ship_month", "extended_value"]),
    ]);
    expect(loaded).toEqual({ data: asked[1], summary: false });
  });

  test("a summary that answers is used as is; other failures are not retried", async () => {
    expect(await loadFirstData(base, REPORT_ATTRIBUTES, async (url) => url)).toEqual({
      data: firstDataUrl(base, REPORT_ATTRIBUTES),
      summary: true,
    });
    let calls = 0;
    const failed = loadFirstData(base, REPORT_ATTRIBUTES, async () => {
      calls++;
      throw refused(500);
    });
    await expect(failed).rejects.toThrow("refused");
    expect(calls).toBe(1);
    // A view without a summary is not retried on a 413 either (there is nothing smaller to ask for).
    const filtered = { ...base, filter: [["Carrier", "==", "DHL"]] };
    calls = 0;
    await expect(
      loadFirstData(filtered, REPORT_ATTRIBUTES, async () => {
        calls++;
        throw refused(413);
      }),
    ).rejects.toThrow("refused");
    expect(calls).toBe(1);
  });
});

describe("a configuration for the server pivot", () => {
  test("keeps the aggregates it offers and turns first/last into max (count on true/false)", () => {
    const aggregates = forServerPivot(defaultConfig(REPORT_ATTRIBUTES), REPORT_ATTRIBUTES)
      .aggregates as Record<string, string>;
    expect(aggregates["Ship date"]).toBe("max");
    expect(aggregates["Shipment ID"]).toBe("distinct count");
    expect(aggregates.Quantity).toBe("sum");
    expect(aggregates.Product).toBe("count");
    const custom = forServerPivot(
      {
        columns: ["Quantity"],
        aggregates: { Quantity: "first", "Licence required": "last", Status: "median" },
      },
      REPORT_ATTRIBUTES,
    );
    expect(custom.aggregates).toEqual({ Quantity: "max", "Licence required": "count", Status: "count" });
    expect(custom.columns).toEqual(["Quantity"]);
  });
});
