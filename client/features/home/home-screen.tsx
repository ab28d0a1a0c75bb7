import { Link } from "@tanstack/react-router";
import { PackageIcon } from "lucide-react";
import type { TCommonDestination, TPerformance, TRecentShipment } from "../../../db/contracts/home";
import { PERIODS, type TPeriod } from "../../../db/contracts/periods";
import type { TTableScreen } from "../../components/kit/entity-table";
import { Button } from "../../components/ui/button";
import { formatDate } from "../../lib/format";
import { cn } from "../../lib/utils";
import { STATUS_TONES, statusLabel } from "./statuses";

const CREATE_SHIPMENT = "/shipments/create-shipment";
const editShipment = (id: number) => `/shipments/edit-shipment/${id}`;
const shipmentPaths = {
  list: "/shipments",
  create: CREATE_SHIPMENT,
  edit: editShipment,
  print: (id: number) => `/shipments/print/${id}`,
};

const PERIOD_LABELS: Record<TPeriod, string> = { week: "Week", month: "Month", year: "Year", all: "All" };
const PERIOD_PHRASES: Record<TPeriod, string> = {
  week: "this week",
  month: "this month",
  year: "this year",
  all: "",
};

/** The recent list on the shared table kit: date, addressee, destination, tracking number; rows open the shipment. */
export function recentScreen(period: TPeriod): TTableScreen<TRecentShipment> {
  return {
    endpoint: "/home/most-recent-shipments",
    noun: "shipment",
    nounPlural: period === "all" ? "shipments" : `shipments ${PERIOD_PHRASES[period]}`,
    createLabel: "Create Int’l Shipment",
    paths: shipmentPaths,
    rowActions: ["edit"],
    columns: [
      {
        key: "date",
        header: "Date",
        sortable: true,
        cell: (row) => (
          <Link
            to={editShipment(row.id)}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            {formatDate(row.date)}
          </Link>
        ),
      },
      {
        key: "addressee",
        header: "Addressee",
        sortable: true,
        filter: "text",
        cell: (row) => row.addressee ?? "—",
      },
      {
        key: "destination",
        header: "Destination",
        sortable: true,
        filter: "text",
        cell: (row) => row.destination ?? "—",
      },
      {
        key: "tracking_number",
        header: "Tracking Number",
        sortable: true,
        filter: "text",
        cell: (row) => row.tracking_number || row.tracking_number_2 || "—",
      },
    ],
  };
}

/** The destinations table on the shared table kit: destination, order number, order percent. */
export function commonScreen(period: TPeriod): TTableScreen<TCommonDestination & { id: number }> {
  return {
    endpoint: "/home/most-common-shipments",
    noun: "destination",
    nounPlural: period === "all" ? "destinations" : `destinations ${PERIOD_PHRASES[period]}`,
    createLabel: "Create Int’l Shipment",
    paths: shipmentPaths,
    rowActions: [],
    columns: [
      { key: "destination", header: "Destination", className: "font-medium" },
      {
        key: "order_number",
        header: "Order Number",
        className: "tabular-nums",
        cell: (row) => row.order_number.toLocaleString("en-US"),
      },
      {
        key: "order_percent",
        header: "Order Percent",
        className: "tabular-nums",
        cell: (row) => `${row.order_percent}%`,
      },
    ],
  };
}

/** Week, Month, Year, All: links, so the choice lives in the URL and can be bookmarked. */
export function PeriodSelector({ period }: { period: TPeriod }) {
  return (
    <nav aria-label="Period" className="inline-flex rounded-lg border bg-muted/40 p-1">
      {PERIODS.map((p) => (
        <Link
          key={p}
          to="."
          search={(prev: Record<string, unknown>) => ({
            ...prev,
            period: p,
            page: undefined,
            cpage: undefined,
          })}
          aria-current={p === period ? "page" : undefined}
          // The router would mark a link active by its search only; the chosen period (all when the
          // URL has none) decides here.
          activeProps={{ "aria-current": p === period ? "page" : undefined, className: "" }}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
            p === period
              ? "bg-background text-foreground shadow-sm"
              : "text-muted-foreground hover:text-foreground",
          )}
        >
          {PERIOD_LABELS[p]}
        </Link>
      ))}
    </nav>
  );
}

/** A tile per status: count and percent in the status colour, label uppercase. */
export function PerformanceTiles({ performance }: { performance: TPerformance }) {
  const entries = performance.data[0].shipments;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Shipping performance">
      {entries.map((entry) => {
        const tone = STATUS_TONES[entry.status];
        return (
          <li
            key={entry.status_id}
            className={cn("relative overflow-hidden rounded-lg border p-4", tone?.tile)}
            data-status={entry.status}
          >
            <span aria-hidden className={cn("absolute inset-y-0 left-0 w-1", tone?.accent)} />
            <p className={cn("text-xs font-semibold tracking-wide", tone?.text)}>
              {statusLabel(entry.status)}
            </p>
            <p className="mt-1 flex items-baseline gap-2">
              <span className="text-2xl font-semibold tabular-nums" data-testid="tile-count">
                {entry.count.toLocaleString("en-US")}
              </span>
              <span className={cn("text-sm tabular-nums", tone?.text)} data-testid="tile-percent">
                {entry.percentage}%
              </span>
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** A workspace without shipments: say what the dashboard will show and lead to creating one. */
export function HomeEmptyState() {
  return (
    <div
      className="rounded-lg border border-dashed bg-muted/30 px-6 py-14 text-center"
      data-testid="home-empty"
    >
      <PackageIcon aria-hidden className="mx-auto size-10 text-muted-foreground" />
      <h2 className="mt-4 text-lg font-semibold">No shipments yet</h2>
      <p className="mx-auto mt-2 max-w-prose text-sm text-muted-foreground">
        Once you create shipments, this dashboard shows how they are doing, where they are going on a world
        map, your most recent ones and your most common destinations.
      </p>
      <Button asChild className="mt-6">
        <Link to={CREATE_SHIPMENT}>Create Int’l Shipment</Link>
      </Button>
    </div>
  );
}
