import { Link } from "@tanstack/react-router";
import type { TScreeningMatch } from "../../../db/contracts/screening";
import { DateTime } from "../../components/app/date-time";
import type { TEntityScreen } from "../../components/kit/entity-config";
import { Badge } from "../../components/ui/badge";
import { formatDate, formatDateTime } from "../../lib/format";
import { ReviewBadge, ScreeningStatus } from "./screening-status";

export type TScreeningRow = {
  id: number;
  name: string;
  /** 'pending' when the contact changed (or was never screened) since this outcome. */
  status: "passed" | "failed" | "pending";
  is_changed: 0 | 1;
  review_date: string | null;
  contact_id: number | null;
  data_screened: { name?: string; address?: string; country?: string };
  results: {
    best_score?: number;
    multiple?: boolean;
    matches?: TScreeningMatch[];
    lists?: { source: string; version_date: string }[];
    change_reason?: string;
  };
  updated_at: string;
};

const listsText = (lists?: { source: string; version_date: string }[]) =>
  (lists ?? []).map((l) => `${l.source} (${l.version_date})`).join(", ");

/** The screenings list (spec: rpscreening) on the shared kit: read-only, with a print page. */
export const screeningsScreen: TEntityScreen<TScreeningRow> = {
  endpoint: "/screenings",
  noun: "screening",
  nounPlural: "screenings",
  listTitle: "Restricted Party Screening",
  createLabel: "",
  createTitle: "",
  editTitle: "Screening",
  saveLabel: "",
  afterCreate: "list",
  rowActions: ["print"],
  paths: {
    list: "/restricted-party-screening",
    create: "/restricted-party-screening",
    edit: (id) => `/restricted-party-screening/print/${id}`,
    print: (id) => `/restricted-party-screening/print/${id}`,
  },
  dictionaries: [],
  columns: [
    {
      key: "name",
      header: "Entity name",
      priority: 1,
      card: "title",
      sortable: true,
      filter: "text",
      className: "font-medium",
      cell: (row) => (
        <span className="flex items-center gap-2">
          {row.name}
          {row.is_changed === 1 && (
            <Badge variant="orange" title={row.results.change_reason}>
              Changed by list update
            </Badge>
          )}
        </span>
      ),
    },
    {
      key: "updated_at",
      header: "Date screened",
      priority: 1,
      card: "detail",
      sortable: true,
      cell: (row) => <DateTime value={row.updated_at} />,
    },
    {
      key: "status",
      header: "Status",
      priority: 1,
      card: "status",
      sortable: true,
      filter: "text",
      cell: (row) => <ScreeningStatus status={row.status} />,
    },
    {
      key: "review_due",
      header: "Review due",
      filter: "boolean",
      cell: (row) => (row.status === "passed" ? <ReviewBadge reviewDate={row.review_date} /> : null),
    },
    {
      key: "contact_id",
      header: "History",
      cell: (row) =>
        row.contact_id ? (
          <Link
            to="/restricted-party-screening/history/$contactId"
            params={{ contactId: row.contact_id }}
            className="text-primary underline-offset-4 hover:underline"
            aria-label={`Screening history of ${row.name}`}
          >
            History
          </Link>
        ) : null,
    },
  ],
  fields: [
    { name: "name", label: "Entity name", kind: "text" },
    { name: "status", label: "Status", kind: "text", format: (v) => String(v).toUpperCase() },
    {
      name: "updated_at",
      label: "Date screened",
      kind: "text",
      format: (v) => formatDateTime(String(v), "UTC"),
    },
    {
      name: "data_screened",
      label: "Screened",
      kind: "text",
      format: (v) => {
        const d = (v ?? {}) as TScreeningRow["data_screened"];
        return [d.name, d.address, d.country].filter(Boolean).join(" · ");
      },
    },
    {
      name: "results",
      label: "Best score",
      kind: "text",
      format: (v) => ((v as TScreeningRow["results"])?.best_score ?? 0).toFixed(3),
    },
    {
      name: "results",
      label: "Top matches",
      kind: "text",
      format: (v) =>
        ((v as TScreeningRow["results"])?.matches ?? [])
          .map((m) => `${m.name} (${m.source_list}, ${m.score.toFixed(3)})`)
          .join("\n"),
    },
    {
      name: "review_date",
      label: "Review date",
      kind: "text",
      format: (v) => (v ? formatDate(String(v)) : ""),
    },
    {
      name: "results",
      label: "Changed by list update because",
      kind: "text",
      format: (v) => (v as TScreeningRow["results"])?.change_reason ?? "",
    },
    {
      name: "results",
      label: "Lists screened against",
      kind: "text",
      format: (v) => listsText((v as TScreeningRow["results"])?.lists),
    },
  ],
  blank: () => ({}),
  toForm: () => ({}),
};
