import { Link, useNavigate } from "@tanstack/react-router";
import { PackageIcon } from "lucide-react";
import { useId } from "react";
import type { TDictionaryOption } from "../../../db/contracts/dictionary";
import type { TCommonDestination, TPerformance, TRecentShipment } from "../../../db/contracts/home";
import { PERIODS, type TPeriod } from "../../../db/contracts/periods";
import { shipmentStatusOf } from "../../../db/contracts/shipment-status";
import type { TTableScreen } from "../../components/kit/entity-table";
import { Button } from "../../components/ui/button";
import { NativeSelect } from "../../components/ui/native-select";
import { formatDate } from "../../lib/format";
import { useRoles } from "../../lib/roles";
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
        priority: 1,
        card: "title",
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
        key: "status_id",
        header: "Status",
        priority: 1,
        card: "status",
        cell: (row) => {
          const status = shipmentStatusOf(row.status_id);
          const tone = STATUS_TONES[status.name];
          return (
            <span
              className={cn(
                "inline-block rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap",
                tone?.tile,
                tone?.text,
              )}
            >
              {status.label}
            </span>
          );
        },
      },
      {
        key: "addressee",
        header: "Addressee",
        priority: 1,
        card: "detail",
        sortable: true,
        filter: "text",
        cell: (row) => row.addressee ?? "—",
      },
      {
        key: "destination",
        header: "Destination",
        priority: 1,
        card: "detail",
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
      { key: "destination", header: "Destination", className: "font-medium", priority: 1 },
      {
        key: "order_number",
        // How many shipments went there: a count, not an order's number.
        header: "Number of Orders",
        priority: 1,
        className: "tabular-nums",
        cell: (row) => row.order_number.toLocaleString("en-US"),
      },
      {
        key: "order_percent",
        header: "Order Percent",
        priority: 1,
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

/**
 * Whose shipments the dashboard shows: everyone's, or those one member created (the creator, not
 * the last editor, so each shipment counts for one person and stays where it is when a colleague
 * edits it). The choice lives in the URL like the period.
 */
export function UserSelector({ users, user }: { users: TDictionaryOption[]; user?: number }) {
  const navigate = useNavigate();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        User
      </label>
      <NativeSelect
        id={id}
        value={user ? String(user) : ""}
        onChange={(event) => {
          const chosen = Number(event.target.value) || undefined;
          navigate({
            to: ".",
            search: (prev: Record<string, unknown>) => ({
              ...prev,
              user: chosen,
              page: undefined,
              cpage: undefined,
            }),
          });
        }}
        wrapperClassName="min-w-40"
        data-testid="home-user"
      >
        <option value="">All users</option>
        {users.map((option) => (
          <option key={option.id} value={String(option.id)}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/**
 * The period's days as My Shipments' ship date filter ("from..to", inclusive), the calendar period
 * containing today (UTC, weeks from Monday) as the dashboard counts it; null for "all".
 */
export function periodShipDates(period: TPeriod, today: Date = new Date()): string | null {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const d = today.getUTCDate();
  const day = (date: Date) => date.toISOString().slice(0, 10);
  if (period === "week") {
    const monday = d - ((today.getUTCDay() + 6) % 7);
    return `${day(new Date(Date.UTC(y, m, monday)))}..${day(new Date(Date.UTC(y, m, monday + 6)))}`;
  }
  if (period === "month")
    return `${day(new Date(Date.UTC(y, m, 1)))}..${day(new Date(Date.UTC(y, m + 1, 0)))}`;
  if (period === "year") return `${y}-01-01..${y}-12-31`;
  return null;
}

/**
 * A tile per status: count and percent in the status colour, label uppercase. Each opens My
 * Shipments filtered to its status (and the period's ship dates, and the member).
 */
export function PerformanceTiles({
  performance,
  period = "all",
  user,
}: {
  performance: TPerformance;
  period?: TPeriod;
  /** The member whose shipments the tiles count: My Shipments opens filtered to them too. */
  user?: number;
}) {
  const dates = periodShipDates(period);
  const entries = performance.data[0].shipments;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Shipping performance">
      {entries.map((entry) => {
        const tone = STATUS_TONES[entry.status];
        return (
          <li key={entry.status_id} data-status={entry.status}>
            <Link
              to="/shipments"
              search={
                {
                  filters: {
                    status: entry.status,
                    ...(dates ? { ship_date: dates } : {}),
                    ...(user ? { user_id: String(user) } : {}),
                  },
                } as never
              }
              className={cn(
                "relative block overflow-hidden rounded-lg border p-4 transition-shadow hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                tone?.tile,
              )}
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
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** A workspace without shipments: say what the dashboard will show and lead to creating one. */
export function HomeEmptyState() {
  const mayCreate = useRoles().can("shipper");
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
      {mayCreate && (
        <Button asChild className="mt-6">
          <Link to={CREATE_SHIPMENT}>Create Int’l Shipment</Link>
        </Button>
      )}
    </div>
  );
}
