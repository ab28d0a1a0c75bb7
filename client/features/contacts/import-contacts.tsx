import { useBlocker, useRouter } from "@tanstack/react-router";
import { UploadIcon } from "lucide-react";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { TImportAnswer, TImportReport, TUploadProgress } from "../../../db/contracts/contacts";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { Spinner } from "../../components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table";
import { formatNumber } from "../../lib/format";
import { ImportColumnsButton, ImportColumnsHelp } from "./import-columns-help";
import { rejectedCsv, truncationNote } from "./import-report";

type TReport = TImportAnswer & TImportReport;

type TOutcome = { ok: true; report: TReport } | { ok: false; reason: string };

export const LEAVE_MESSAGE = "Upload is in progress. Leave page?";

/** POSTs the file as multipart with upload progress (fetch cannot report it). */
function uploadCsv(file: File, onProgress: (percent: number) => void): Promise<TOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append("csv_upload", file);
    xhr.open("POST", "/api/contacts/upload");
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: (TReport & { message?: string }) | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status < 400 && body && !body.result) resolve({ ok: true, report: body });
      else resolve({ ok: false, reason: body?.result ?? body?.message ?? `Service returned ${xhr.status}` });
    };
    xhr.onerror = () => resolve({ ok: false, reason: "No response received" });
    xhr.send(form);
  });
}

/** How often the server is asked how far its import of an uploaded file has got. */
const PROGRESS_POLL_MS = 500;

/**
 * Once the file is sent, how far the server's import of it has got (rows read and the share of the
 * file), asked every PROGRESS_POLL_MS until the upload answers: a big file is imported and every new
 * contact screened before it does.
 */
function useImportProgress(isWaiting: boolean): TUploadProgress | null {
  const router = useRouter();
  const [imported, setImported] = useState<TUploadProgress | null>(null);
  useEffect(() => {
    if (!isWaiting) {
      setImported(null);
      return;
    }
    let isStopped = false;
    const timer = setInterval(() => {
      router.options.context.api
        .get<TUploadProgress>("/contacts/upload/progress")
        .then((answer) => !isStopped && answer.rows !== null && setImported(answer))
        .catch(() => {});
    }, PROGRESS_POLL_MS);
    return () => {
      isStopped = true;
      clearInterval(timer);
    };
  }, [isWaiting, router]);
  return imported;
}

/** 'Import Contacts': one CSV file at a time, 'Importing...' while busy, a summary when done. */
export function ImportContactsButton() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<TOutcome>();
  const isBusy = progress !== null;
  const imported = useImportProgress(progress === 100);
  // Leaving mid-upload asks first (spec section 4), for in-app links and for closing the tab.
  useBlocker({
    shouldBlockFn: () => !window.confirm(LEAVE_MESSAGE),
    enableBeforeUnload: () => isBusy,
    disabled: !isBusy,
  });

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = "";
    if (!files.length) return;
    const file = files[0];
    if (files.length > 1 || !(file.type === "text/csv" || file.name.toLowerCase().endsWith(".csv"))) {
      toast.error("Import failed", { description: "Choose one CSV file (.csv)." });
      return;
    }
    setProgress(0);
    const result = await uploadCsv(file, setProgress);
    setProgress(null);
    setOutcome(result);
    if (result.ok) {
      const { report } = result;
      // A partial import is not a plain success: say how many rows did not make it.
      if (report.rejected > 0) {
        toast.warning("Import completed", {
          description: `${report.created} created, ${report.updated} updated, ${report.rejected} ${report.rejected === 1 ? "row" : "rows"} rejected.`,
        });
      } else toast.success("Import completed");
      await router.invalidate();
    } else {
      toast.error("Import failed", { description: result.reason });
    }
  };

  const download = (report: TReport) => {
    const url = URL.createObjectURL(new Blob([rejectedCsv(report)], { type: "text/csv" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "rejected-contacts.csv";
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        aria-label="CSV file to import"
        tabIndex={-1}
        onChange={(e) => void onChange(e)}
      />
      <ImportColumnsButton />
      <Button variant="outline" disabled={isBusy} onClick={() => input.current?.click()}>
        {isBusy ? <Spinner /> : <UploadIcon />}
        {isBusy ? "Importing..." : "Import Contacts"}
      </Button>
      {isBusy &&
        (imported?.rows != null ? (
          <div className="flex w-40 items-center gap-2 text-xs text-muted-foreground" role="status">
            <progress
              className="h-2 w-full"
              max={100}
              value={imported.percent}
              aria-label="Import progress"
            />
            <span className="whitespace-nowrap">{formatNumber(imported.rows)} rows</span>
          </div>
        ) : (
          <div className="flex w-40 items-center gap-2 text-xs text-muted-foreground">
            <progress className="h-2 w-full" max={100} value={progress} aria-label="Upload progress" />
            <span>{progress < 100 ? `${progress}%` : "Checking…"}</span>
          </div>
        ))}
      <Dialog open={Boolean(outcome)} onOpenChange={(open) => !open && setOutcome(undefined)}>
        <DialogContent className="sm:max-w-2xl">
          {outcome?.ok ? (
            <>
              <DialogHeader>
                <DialogTitle>Import completed</DialogTitle>
                <DialogDescription>
                  {outcome.report.rows} rows read: {outcome.report.created} created, {outcome.report.updated}{" "}
                  updated, {outcome.report.unchanged} unchanged, {outcome.report.rejected} rejected.
                </DialogDescription>
              </DialogHeader>
              {truncationNote(outcome.report) && (
                <p className="text-sm text-muted-foreground" role="status">
                  {truncationNote(outcome.report)}
                </p>
              )}
              {outcome.report.rejected > 0 && (
                <div className="max-h-72 overflow-auto rounded border">
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead className="w-16">Line</TableHead>
                        <TableHead>Why it was rejected</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {outcome.report.rejected_rows.map((r) => (
                        <TableRow key={r.line}>
                          <TableCell>{r.line}</TableCell>
                          <TableCell className="whitespace-normal">
                            {r.errors.map((e) => e.replace(/\.$/, "")).join("; ")}
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
              <DialogFooter>
                {outcome.report.rejected > 0 && (
                  <Button variant="outline" onClick={() => download(outcome.report)}>
                    Download rejected rows
                  </Button>
                )}
                <Button onClick={() => setOutcome(undefined)}>Close</Button>
              </DialogFooter>
            </>
          ) : (
            <>
              <DialogHeader>
                <DialogTitle>Import failed</DialogTitle>
                <DialogDescription>{outcome?.reason}</DialogDescription>
              </DialogHeader>
              <ImportColumnsHelp />
              <DialogFooter>
                <Button onClick={() => setOutcome(undefined)}>Close</Button>
              </DialogFooter>
            </>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
