import { Link } from "@tanstack/react-router";
import { DownloadIcon, RefreshCwIcon, Settings2Icon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { REPORT_ATTRIBUTES, type TReportAttribute } from "../../../db/contracts/report-attributes";
import { REPORT_PIVOT_TABLE, type TReportPivot } from "../../../db/contracts/report-pivot";
import { PageHeader } from "../../components/app/screens";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { Switch } from "../../components/ui/switch";
import { safeReportCsv, safeReportCsvFromColumns } from "./report-csv";
import { ReportTools } from "./report-tools";
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
} from "./report-view";
import { isConfigured, type TViewerConfig } from "./saved-setups";
import { keepViewerLabelled } from "./viewer-a11y";

/** The advanced UI flag: a visible switch on this screen, remembered in this browser. */
export const ADVANCED_STORAGE_KEY = "tradewinds-reports-advanced";

/** What the screen uses of a `<perspective-viewer>` element (typed loosely: Perspective loads lazily). */
type TViewer = HTMLElement & {
  load(table: unknown): Promise<void>;
  restore(config: TViewerConfig): Promise<void>;
  save(): Promise<TViewerConfig>;
  getView(): Promise<{
    to_csv(): Promise<string>;
    to_columns(): Promise<object>;
    num_rows(): Promise<number>;
  }>;
  toggleConfig(force?: boolean): Promise<void>;
  delete(): Promise<void>;
};
type TTable = {
  replace(data: ArrayBuffer): Promise<void>;
  size(): Promise<number>;
  columns(): Promise<string[]>;
  delete(): Promise<void>;
};

/** A table the server pivots, and its connection. */
type TServerTable = { table: TTable; close(): void };

/** Opens a connection to the server's pivot and the workspace's table on it. */
async function openServerTable(): Promise<TServerTable> {
  const client = await import("./perspective-loader").then((m) => m.pivotSocketClient());
  performance.mark("reports:perspective-ready");
  try {
    const table = (await client.open_table(REPORT_PIVOT_TABLE)) as unknown as TTable;
    performance.mark("reports:table-loaded");
    return { table, close: () => void Promise.resolve(client.terminate()).catch(() => undefined) };
  } catch (error) {
    void Promise.resolve(client.terminate()).catch(() => undefined);
    throw error;
  }
}

/**
 * loading: nothing shown yet; partial: the first pivot is up from the columns it needs (or, with
 * `summary`, from the server's sums of them, so it stays read-only), the rest are still loading (the
 * setup tools wait for them); ready: every line and column is in.
 */
type TPhase =
  | { kind: "loading" }
  | { kind: "partial"; summary: boolean }
  | { kind: "ready"; lines: number }
  | { kind: "error"; message: string };

/** The workspace's report lines as Arrow, named by label (what the pivot shows); `url` from reportDataUrl. */
async function fetchReportData(url = reportDataUrl(null)): Promise<ArrayBuffer> {
  let response: Response;
  try {
    // No extra headers: the same request as the page's early start below, so that one is reused.
    response = await fetch(url);
  } catch {
    throw new Error("No response received");
  }
  if (response.status === 401) {
    window.location.assign(`/auth/login?next=${encodeURIComponent("/reports")}`);
    throw new Error("Please log in to continue");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    // The status goes with it: a 413 on a summary falls back to the lines (loadFirstData).
    throw Object.assign(new Error(body?.message ?? `Service returned ${response.status}`), {
      status: response.status,
    });
  }
  return response.arrayBuffer();
}

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Early start, when this chunk first runs on a /reports page (before hydration): Perspective's
 * worker and WebAssembly (whose files the server render already asked for) and the columns of the
 * first view. The screen's first load takes them over; any later load fetches afresh.
 */
let early: { url: string; data: Promise<ArrayBuffer> } | null = null;
if (
  typeof window !== "undefined" &&
  window.location.pathname === "/reports" &&
  document.querySelector('[data-pivot="browser"]')
) {
  const url = firstDataUrl(initialConfig(REPORT_ATTRIBUTES, window.location.search), REPORT_ATTRIBUTES);
  early = { url, data: fetchReportData(url) };
  early.data.catch(() => undefined);
  void import("./perspective-loader").then((m) => m.perspectiveClient()).catch(() => undefined);
}

/** The early download of `url`, once; null when there is none (or it was for another view). */
function takeEarly(url: string): Promise<ArrayBuffer> | null {
  const taken = early?.url === url ? early.data : null;
  early = null;
  return taken;
}

/**
 * /reports: a Perspective pivot over the workspace's shipment lines. Perspective, its plugins and its
 * WASM load only here, after hydration; the server renders the frame and an empty container.
 */
export function ReportsScreen({
  attributes,
  pivot = "browser",
}: {
  attributes: TReportAttribute[];
  /** Where the pivot runs: "server" for a large workspace (the pivot socket), "browser" otherwise. */
  pivot?: TReportPivot;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<TViewer | null>(null);
  const tableRef = useRef<TTable | null>(null);
  const serverRef = useRef<TServerTable | null>(null);
  const [phase, setPhase] = useState<TPhase>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [isReloading, setIsReloading] = useState(false);
  const [config, setConfig] = useState<TViewerConfig | null>(null);
  const [isStretched, setIsStretched] = useState(false);
  const [stretchRows, setStretchRows] = useState(0);
  const [isAdvanced, setIsAdvanced] = useState(false);
  const [isToolsOpen, setIsToolsOpen] = useState(false);

  useEffect(() => {
    setIsAdvanced(window.localStorage.getItem(ADVANCED_STORAGE_KEY) === "1");
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load after an error.
  useEffect(() => {
    let isCancelled = false;
    let viewer: TViewer | null = null;
    let table: TTable | null = null;
    let full: TTable | null = null;
    let stopLabelling = () => {};
    /** The `<perspective-viewer>`, in the container, labelled, reporting its configuration. */
    const createViewer = (): TViewer => {
      const created = document.createElement("perspective-viewer") as unknown as TViewer;
      created.setAttribute("theme", "Pro Light");
      created.className = "block h-full w-full";
      // The event carries only what changed: the whole configuration is read back.
      created.addEventListener("perspective-config-update", () => {
        void created
          .save()
          .then((next) => {
            if (!isCancelled) setConfig(next);
          })
          .catch(() => undefined);
      });
      containerRef.current?.replaceChildren(created);
      stopLabelling = keepViewerLabelled(created);
      viewerRef.current = created;
      return created;
    };
    /** Once the first pivot is on screen: the line count, and the settings panel on a wide screen. */
    const showReady = async (shown: TViewer, lines: number) => {
      setConfig(await shown.save());
      setPhase({ kind: "ready", lines });
      // The settings panel is where rows, columns, filters and charts are chosen: open it from the start.
      //
      // On a narrow screen it would cover the whole grid, so there it stays closed.
      if (lines > 0 && window.matchMedia("(min-width: 1024px)").matches) {
        void shown.toggleConfig(true).catch(() => undefined);
      }
    };
    /** A load that failed shows its message, unless the screen has moved on. */
    const fail = (error: unknown) => {
      if (!isCancelled)
        setPhase({ kind: "error", message: error instanceof Error ? error.message : String(error) });
    };
    /** The effect's clean-up: the viewer goes first, then what held its lines (`release`). */
    const cleanUp = (release: () => unknown) => {
      isCancelled = true;
      stopLabelling();
      viewerRef.current = null;
      void Promise.resolve(viewer?.delete())
        .catch(() => undefined)
        .then(release)
        .catch(() => undefined);
    };
    setPhase({ kind: "loading" });
    if (pivot === "server") {
      // A large workspace pivots on the server: the viewer asks it for each view's cells over a
      // socket; no engine and no lines download.
      (async () => {
        const first = initialConfig(attributes, window.location.search);
        const opened = await openServerTable();
        if (isCancelled) {
          opened.close();
          return;
        }
        serverRef.current = opened;
        viewer = createViewer();
        await Promise.all([viewer.load(opened.table), viewer.restore(forServerPivot(first, attributes))]);
        performance.mark("reports:first-pivot");
        const lines = await opened.table.size();
        if (!isCancelled) await showReady(viewer, lines);
      })().catch(fail);
      return () => {
        const server = serverRef.current;
        serverRef.current = null;
        cleanUp(() => server?.close());
      };
    }
    (async () => {
      // The first view's columns download while the Perspective chunk loads and compiles its
      // WebAssembly; the other columns follow, and the same lines with every column replace them.
      // Performance marks (reports:*) let the benchmark say where the time to the first pivot goes.
      // A view of sums starts from the server's sums per combination (a few hundred records
      // instead of every line: exact, as a sum of sums is the sum), any other from its columns.
      const first = initialConfig(attributes, window.location.search);
      const summary = summaryOf(first, attributes);
      const firstKeys = summary ? [...summary.groupBy, ...summary.sums] : firstColumns(first, attributes);
      // A summary refused as too large (413) comes back as the same columns' lines instead.
      const firstLoad = loadFirstData(
        first,
        attributes,
        (url) => takeEarly(url) ?? fetchReportData(url),
      ).finally(() => performance.mark("reports:data-received"));
      firstLoad.catch(() => undefined);
      const data = firstLoad.then((loaded) => loaded.data);
      data.catch(() => undefined);
      const client = await import("./perspective-loader")
        .then((m) => m.perspectiveClient())
        .finally(() => performance.mark("reports:perspective-ready"));
      if (isCancelled) return;
      // The viewer is created as soon as Perspective is up, and given the table as a promise: its
      // own first-time setup (plugins, styles, grid) overlaps the download and the table load.
      const loading = data
        .then((bytes) => client.table(bytes) as unknown as Promise<TTable>)
        .then((loaded) => {
          performance.mark("reports:table-loaded");
          if (isCancelled) void loaded.delete().catch(() => undefined);
          else table = loaded;
          return loaded;
        });
      viewer = createViewer();
      const firstLabels = new Set(
        attributes.filter((a) => !firstKeys || firstKeys.includes(a.name)).map((a) => a.label),
      );
      // Started together: awaiting load() before restore() can leave stale duplicate columns.
      await Promise.all([viewer.load(loading), viewer.restore(configFor(first, firstLabels))]);
      table = await loading;
      tableRef.current = table;
      performance.mark("reports:first-pivot");
      if (isCancelled) return;
      if (firstKeys) {
        // Asked for only now, after the pivot's frame is painted (or 100 ms in a hidden tab):
        // downloading them alongside slowed the first pivot down.
        setPhase({ kind: "partial", summary: (await firstLoad).summary });
        await new Promise<void>((resolve) => {
          requestAnimationFrame(() => setTimeout(resolve, 0));
          setTimeout(resolve, 100);
        });
        if (isCancelled) return;
        full = (await client.table(await fetchReportData(reportDataUrl(null)))) as unknown as TTable;
        performance.mark("reports:all-columns-loaded");
        if (isCancelled) {
          void full.delete().catch(() => undefined);
          full = null;
          return;
        }
        // Whatever the user pivoted meanwhile stays; the other columns get their default aggregates.
        // The viewer names the table it shows (`table`); without it, restore keeps the one just loaded.
        const { table: _shown, ...current } = await viewer.save();
        const aggregates = { ...defaultConfig(attributes).aggregates!, ...current.aggregates! };
        await Promise.all([viewer.load(full), viewer.restore({ ...current, aggregates })]);
        void table.delete().catch(() => undefined);
        table = full;
        full = null;
        tableRef.current = table;
        performance.mark("reports:all-columns-shown");
        if (isCancelled) return;
      }
      const lines = await table.size();
      if (isCancelled) return;
      await showReady(viewer, lines);
    })().catch(fail);
    return () => {
      tableRef.current = null;
      cleanUp(() => Promise.all([table?.delete(), full?.delete()]));
    };
  }, [attempt, pivot]);

  /** Re-fetches the lines into the same table: the viewer keeps its current setup. */
  const reload = useCallback(async () => {
    const server = serverRef.current;
    const viewer = viewerRef.current;
    /** Runs `refresh` (answering the new line count) with the reload's progress and outcome toasts. */
    const reloading = async (refresh: () => Promise<number>) => {
      setIsReloading(true);
      try {
        const lines = await refresh();
        setPhase({ kind: "ready", lines });
        toast.success("Report data reloaded", {
          description: `${lines.toLocaleString("en-US")} shipment lines`,
        });
      } catch (error) {
        toast.error("Reload failed", { description: error instanceof Error ? error.message : String(error) });
      } finally {
        setIsReloading(false);
      }
    };
    if (server && viewer) {
      // A new connection sees the lines as they are now; the viewer keeps its current setup.
      await reloading(async () => {
        const fresh = await openServerTable();
        const { table: _shown, ...current } = await viewer.save();
        await Promise.all([viewer.load(fresh.table), viewer.restore(current)]);
        serverRef.current = fresh;
        server.close();
        return fresh.table.size();
      });
      return;
    }
    const table = tableRef.current;
    if (!table) {
      setAttempt((n) => n + 1);
      return;
    }
    await reloading(async () => {
      await table.replace(await fetchReportData());
      return table.size();
    });
  }, []);

  // Stretched, the viewer is as tall as its rows so the page scrolls instead of the grid.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new config means a new row count.
  useEffect(() => {
    if (!isStretched || !viewerRef.current || phase.kind !== "ready") return;
    let isCurrent = true;
    void viewerRef.current
      .getView()
      .then((view) => view.num_rows())
      .then((rows) => {
        if (isCurrent) setStretchRows(rows);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [isStretched, phase, config]);

  const exportCsv = async () => {
    const view = await viewerRef.current?.getView();
    if (!view) return;
    // Cells a spreadsheet would run as formulas are written as text (report-csv.ts).
    const csv = serverRef.current
      ? safeReportCsvFromColumns(
          (await view.to_columns()) as Record<string, unknown[]>,
          (await viewerRef.current?.save())?.group_by ?? [],
        )
      : safeReportCsv(await view.to_csv());
    download(new Blob([csv], { type: "text/csv" }), `report-${today()}.csv`);
    toast.success("CSV exported");
  };

  const setAdvanced = (value: boolean) => {
    setIsAdvanced(value);
    window.localStorage.setItem(ADVANCED_STORAGE_KEY, value ? "1" : "0");
  };

  const isReady = phase.kind === "ready";
  const isEmpty = isReady && phase.lines === 0;
  const hasSetup = isConfigured(config);
  const height = isStretched
    ? `${Math.min(Math.max(stretchRows * 24 + 240, 720), 60_000)}px`
    : "max(480px, calc(100dvh - 13rem))";

  return (
    <section>
      <PageHeader title="Reports">
        {phase.kind === "partial" && (
          <span role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner />
            {phase.summary ? "Loading every line…" : "Loading the other columns…"}
          </span>
        )}
        <div className="flex items-center gap-2">
          <Switch id="reports-advanced" checked={isAdvanced} onCheckedChange={setAdvanced} />
          <Label htmlFor="reports-advanced">Advanced tools</Label>
        </div>
        {isAdvanced && (
          <Button
            variant="outline"
            disabled={!isReady || isEmpty || !hasSetup}
            onClick={() => setIsToolsOpen(true)}
          >
            <Settings2Icon />
            Tools
          </Button>
        )}
        <Button variant="outline" disabled={!isReady || isEmpty} onClick={() => setIsStretched((v) => !v)}>
          {isStretched ? "Fit results to page" : "Stretch results"}
        </Button>
        <Button variant="outline" disabled={!isReady || isEmpty} onClick={() => void exportCsv()}>
          <DownloadIcon />
          Export CSV
        </Button>
        <Button disabled={!isReady || isReloading} onClick={() => void reload()}>
          {isReloading ? <Spinner /> : <RefreshCwIcon />}
          Reload
        </Button>
      </PageHeader>

      {phase.kind === "error" && (
        <div
          role="alert"
          className="mb-4 rounded-lg border border-destructive/30 bg-destructive/5 p-8 text-center"
        >
          <h2 className="text-lg font-semibold">{phase.message || "An error occured!"}</h2>
          <p className="mt-1 text-sm text-muted-foreground">The report data could not be loaded.</p>
          <div className="mt-4 flex justify-center gap-2">
            <Button asChild variant="outline">
              <Link to="/home">Home</Link>
            </Button>
            <Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>
          </div>
        </div>
      )}

      {isEmpty && (
        <div
          className="rounded-lg border border-dashed bg-muted/30 p-10 text-center"
          data-testid="reports-empty"
        >
          <p className="font-medium">No shipment lines to report yet</p>
          <p className="mx-auto mt-2 max-w-prose text-sm text-muted-foreground">
            Reports pivot the items of your shipments (templates are left out). Create a shipment, then
            Reload.
          </p>
          <Button asChild className="mt-4">
            <Link to="/shipments/create-shipment">Create Int’l Shipment</Link>
          </Button>
        </div>
      )}

      <div className={isEmpty || phase.kind === "error" ? "hidden" : "relative"} style={{ height }}>
        {phase.kind === "loading" && (
          <div
            role="status"
            className="absolute inset-0 z-10 flex items-center justify-center gap-2 rounded-lg border bg-background text-sm text-muted-foreground"
          >
            <Spinner />
            Loading report data…
          </div>
        )}
        <div
          ref={containerRef}
          data-testid="reports-viewer"
          // Where the pivot runs (Perspective's chunk reads it to skip its engine on "server").
          data-pivot={pivot}
          // How many lines are loaded, once the first pivot has rendered (tests and the benchmark wait for it).
          data-lines={phase.kind === "ready" ? phase.lines : undefined}
          // Set once the first pivot is on screen (possibly before every column is in).
          data-first-pivot={phase.kind === "ready" || phase.kind === "partial" ? "" : undefined}
          // Drawn from the server's sums, the pivot is only good for this view: no changes until the lines are in.
          inert={phase.kind === "partial" && phase.summary}
          className="h-full w-full overflow-hidden rounded-lg border"
        />
      </div>

      {isAdvanced && (
        <ReportTools
          open={isToolsOpen}
          onOpenChange={setIsToolsOpen}
          isConfigured={hasSetup}
          currentConfig={async () => (await viewerRef.current?.save()) ?? null}
          onLoad={async (next) => {
            await viewerRef.current?.restore(pivot === "server" ? forServerPivot(next, attributes) : next);
          }}
        />
      )}
    </section>
  );
}
