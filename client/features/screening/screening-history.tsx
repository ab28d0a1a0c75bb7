import { Link } from "@tanstack/react-router";
import { PrinterIcon } from "lucide-react";
import type { TContactScreening, TScreeningHistoryEntry } from "../../../db/contracts/screening";
import { DateTime } from "../../components/app/date-time";
import { PageHeader } from "../../components/app/screens";
import { Button } from "../../components/ui/button";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table";
import { formatDate } from "../../lib/format";
import { ReviewBadge, ScreeningStatus } from "./screening-status";

export type THistoryAnswer = {
  contact: { id: number; company: string };
  current: TContactScreening | null;
  data: TScreeningHistoryEntry[];
};

const KIND_LABEL: Record<TScreeningHistoryEntry["kind"], string> = {
  screen: "Screening",
  rescreen: "Re-screening",
  override: "Override",
};

/**
 * A contact's screening trail, newest first: every screening, re-screening after a list update
 * (with why it changed) and override (with the note and review date), who and against which lists.
 * Printable as it is: the audit trail an inspector asks for.
 */
export function ScreeningHistory({ answer }: { answer: THistoryAnswer }) {
  const { contact, current, data } = answer;
  return (
    <section>
      <PageHeader title={`Screening history: ${contact.company}`}>
        <div className="flex gap-2" data-print-hide>
          <Button asChild variant="outline">
            <Link to="/contacts/edit-contact/$itemId" params={{ itemId: String(contact.id) }}>
              Contact
            </Link>
          </Button>
          <Button onClick={() => window.print()}>
            <PrinterIcon />
            Print
          </Button>
        </div>
      </PageHeader>
      {current && (
        <p className="mb-4 flex flex-wrap items-center gap-3 text-sm">
          <span>Current outcome:</span>
          <ScreeningStatus status={current.status} />
          {current.status === "passed" && <ReviewBadge reviewDate={current.review_date} />}
        </p>
      )}
      {data.length === 0 ? (
        <p className="text-muted-foreground">This contact has not been screened yet.</p>
      ) : (
        // Focusable, so a keyboard can scroll the wide table sideways on a phone.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        <section tabIndex={0} aria-label="Screening history entries" className="overflow-x-auto">
          <table aria-label="Screening history" className="w-full caption-bottom text-sm">
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>What</TableHead>
                <TableHead>Outcome</TableHead>
                <TableHead>Closest list entry</TableHead>
                <TableHead>Note or reason</TableHead>
                <TableHead>By</TableHead>
                <TableHead>Lists</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.map((entry) => (
                <TableRow key={entry.id} className="align-top">
                  <TableCell className="whitespace-nowrap">
                    <DateTime value={entry.created_at} />
                  </TableCell>
                  <TableCell>
                    {KIND_LABEL[entry.kind]}
                    <div className="text-xs text-muted-foreground">{entry.name}</div>
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-col items-start gap-1">
                      <ScreeningStatus status={entry.outcome} />
                      {entry.previous_status && entry.previous_status !== entry.outcome && (
                        <span className="text-xs text-muted-foreground">
                          was {entry.previous_status.toUpperCase()}
                        </span>
                      )}
                    </div>
                  </TableCell>
                  <TableCell className="max-w-72 whitespace-normal">
                    {entry.best_match ? (
                      <>
                        <span className="font-medium">{entry.best_match.name}</span>
                        {entry.best_match.matched_name !== entry.best_match.name && (
                          <span> as “{entry.best_match.matched_name}”</span>
                        )}
                        <div className="text-xs text-muted-foreground">
                          {entry.best_match.source_list} {entry.best_match.source_id}
                          {entry.best_match.programs.length > 0 &&
                            ` · ${entry.best_match.programs.join(", ")}`}{" "}
                          · score {entry.best_match.score.toFixed(3)}
                        </div>
                      </>
                    ) : (
                      <span className="text-muted-foreground">none close</span>
                    )}
                  </TableCell>
                  <TableCell className="max-w-72 whitespace-normal">
                    {entry.note}
                    {entry.review_date && (
                      <div className="text-xs text-muted-foreground">
                        Review on {formatDate(entry.review_date)}
                      </div>
                    )}
                  </TableCell>
                  {/* Long addresses and the lists wrap: at 1440 px the Lists column, the record an
                      inspector asks for, was cut off at the screen's edge. */}
                  <TableCell className="min-w-40 max-w-56 whitespace-normal break-all">
                    {entry.user}
                  </TableCell>
                  <TableCell className="text-xs">
                    {entry.lists.map((l) => (
                      <div key={`${l.source} ${l.version_date}`}>
                        {l.source} ({l.version_date})
                      </div>
                    ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </table>
        </section>
      )}
    </section>
  );
}

/** Contacts whose outcome a list update changed, and why (GET /screenings/changes). */
export function ListChanges({ changes }: { changes: TScreeningHistoryEntry[] }) {
  if (changes.length === 0) return null;
  return (
    <details className="rounded-md border p-3 text-sm" data-print-hide>
      <summary className="cursor-pointer font-medium">
        Outcomes changed by list updates ({changes.length})
      </summary>
      <ul className="mt-2 space-y-1" aria-label="Outcomes changed by list updates">
        {changes.map((change) => (
          <li key={change.id}>
            {change.contact_id ? (
              <Link
                to="/restricted-party-screening/history/$contactId"
                params={{ contactId: change.contact_id }}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {change.name}
              </Link>
            ) : (
              change.name
            )}
            : {change.previous_status?.toUpperCase()} → {change.outcome.toUpperCase()} — {change.note}{" "}
            <span className="text-muted-foreground">
              (<DateTime value={change.created_at} />)
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
