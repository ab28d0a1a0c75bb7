import { Link, useNavigate, useRouter, useRouterState } from "@tanstack/react-router";
import {
  ArrowDownIcon,
  ArrowUpDownIcon,
  ArrowUpIcon,
  PencilIcon,
  PrinterIcon,
  Trash2Icon,
  XIcon,
} from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { toast } from "sonner";
import type { TDictionary } from "../../../db/contracts/dictionary";
import { ApiError, type TApi } from "../../lib/api";
import { focusPageHeading } from "../../lib/focus";
import { formatNumber } from "../../lib/format";
import { PAGE_SIZE, type TListPage, type TListSearch } from "../../lib/list-search";
import { useRoles } from "../../lib/roles";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../ui/dialog";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover";
import { Skeleton } from "../ui/skeleton";
import { Spinner } from "../ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { ColumnFilter } from "./column-filter";
import type { TColumn, TEntityScreen } from "./entity-config";
import { ColumnChooser, columnVisibilityClass, RowCards, useColumnChoice } from "./table-columns";

/** What the table needs of a screen: a read-only list (the dashboard's) needs no form. */
export type TTableScreen<T extends { id: number }> = Pick<
  TEntityScreen<T>,
  "endpoint" | "noun" | "nounPlural" | "createLabel" | "paths" | "columns" | "rowActions" | "rowLabel"
>;

type TProps<T extends { id: number }> = {
  screen: TTableScreen<T>;
  page: TListPage<T>;
  search: TListSearch;
  dictionaries: TDictionary;
  api: TApi;
  /** Extra buttons in the toolbar (e.g. Import). */
  actions?: ReactNode;
  /**
   * Where page, sort and filter changes go; by default the URL's search parameters. A screen with
   * two tables keeps the second one's state under its own keys.
   */
  onSearch?: (next: Partial<TListSearch>) => void;
  /** Accessible name of the table (a screen with two tables names both). */
  label?: string;
};

/** 'x-y of N items' (spec section 2). */
export function rangeText(page: number, total: number): string {
  if (total === 0) return "0 items";
  const first = (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(page * PAGE_SIZE, total);
  return `${formatNumber(first)}-${formatNumber(last)} of ${formatNumber(total)} items`;
}

/**
 * The shared table: sortable and filterable columns, paging of 10, edit/print/delete per row.
 * Page, sort and filters live in the URL, so a list can be bookmarked and Back works.
 */
export function EntityTable<T extends { id: number }>({
  screen,
  page,
  search,
  dictionaries,
  api,
  actions,
  onSearch,
  label,
}: TProps<T>) {
  const navigate = useNavigate();
  const setSearch =
    onSearch ??
    ((next: Partial<TListSearch>) =>
      navigate({ to: ".", search: (prev: TListSearch) => ({ ...prev, ...next }) as never }));
  const hasActions = (screen.rowActions ?? ["edit", "print", "delete"]).length > 0;
  const mayCreate = useRoles().can("shipper");
  // While the next page, sort or filter loads, the frame and the current rows stay; a spinner shows.
  const isLoading = useRouterState({ select: (s) => s.isLoading });
  const filters = search.filters ?? {};
  const hasFilters = Object.keys(filters).length > 0;
  const currentPage = page.current_page;
  const lastPage = Math.max(1, Math.ceil(page.total / PAGE_SIZE));

  const frame = useRef<HTMLDivElement>(null);
  const [columnChoice, setColumnChoice] = useColumnChoice(`${screen.endpoint}${label ? `:${label}` : ""}`);
  const renderCell = (column: TColumn<T>, row: T): ReactNode => {
    if (column.cell) return column.cell(row, dictionaries);
    const plain = String((row as Record<string, unknown>)[column.key] ?? "");
    // Long text is cut to the column and shown whole on hover.
    return (
      <span className="block max-w-64 truncate" title={plain.length > 30 ? plain : undefined}>
        {plain}
      </span>
    );
  };

  /** A column's sort link (or its name) and filter: the table's header, or the cards' bar on a phone. */
  const headerControls = (column: TColumn<T>): ReactNode => (
    <>
      {column.sortable ? (
        <SearchControl
          target={nextSort(search, column.key)}
          onSearch={onSearch}
          variant="ghost"
          className="-ml-2 h-8 px-2"
          ariaLabel={`Sort by ${column.header}`}
        >
          {column.header}
          <SortIcon
            direction={search.sortProp === column.key ? (search.sortDirection ?? "asc") : undefined}
          />
        </SearchControl>
      ) : (
        <span>{column.header}</span>
      )}
      {column.filter && (
        <ColumnFilter
          column={column}
          dictionaries={dictionaries}
          value={filters[column.key]}
          onApply={(value) => setFilter(column.key, value)}
        />
      )}
    </>
  );

  // What an empty list says.
  const emptyMessage = hasFilters ? (
    <span>No {screen.nounPlural} match these filters.</span>
  ) : (
    <span>
      No {screen.nounPlural} yet.{" "}
      {screen.createLabel && mayCreate && (
        <Link to={screen.paths.create} className="text-primary underline underline-offset-4">
          {screen.createLabel}
        </Link>
      )}
    </span>
  );

  const setFilter = (key: string, value: string | undefined) => {
    const next = { ...filters };
    if (value === undefined) delete next[key];
    else next[key] = value;
    setSearch({ filters: Object.keys(next).length ? next : undefined, page: undefined });
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2" data-print-hide>
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {hasFilters && (
            <>
              <span>Filtered by</span>
              {Object.entries(filters).map(([key, value]) => (
                <span
                  key={key}
                  className="inline-flex items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-3 text-foreground"
                >
                  {filterText(screen.columns, key, value, dictionaries)}
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-6 rounded-full"
                    aria-label={`Remove the filter ${filterText(screen.columns, key, value, dictionaries)}`}
                    onClick={() => setFilter(key, undefined)}
                  >
                    <XIcon />
                  </Button>
                </span>
              ))}
              <Button
                variant="link"
                size="sm"
                onClick={() => setSearch({ filters: undefined, page: undefined })}
              >
                Clear filters
              </Button>
            </>
          )}
          {isLoading && (
            <span className="inline-flex items-center gap-1" role="status">
              <Spinner /> Loading…
            </span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <ColumnChooser
            columns={screen.columns}
            choice={columnChoice}
            onChange={setColumnChoice}
            shownNow={() =>
              new Set(
                [...(frame.current?.querySelectorAll<HTMLElement>("th[data-column]") ?? [])]
                  .filter((th) => th.offsetParent !== null)
                  .map((th) => th.dataset.column as string),
              )
            }
          />
          {actions}
        </div>
      </div>
      {/* A size container: low-priority columns show when the table itself has room (the sidebar
          takes 256 px of a 1440 px screen), not when the window is wide. Below 36rem (a phone) the
          rows are cards instead. */}
      <div className="@container rounded-lg border bg-card" ref={frame}>
        {page.data.length > 0 && screen.columns.some((c) => c.sortable || c.filter) && (
          // Cards have no header: its sort and filter controls line up above them.
          <div
            className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b p-2 text-sm @xl:hidden"
            data-testid="card-controls"
          >
            {screen.columns
              .filter((c) => c.sortable || c.filter)
              .map((column) => (
                <div key={column.key} className="flex items-center gap-0.5">
                  {headerControls(column)}
                </div>
              ))}
          </div>
        )}
        {page.data.length > 0 && (
          <RowCards
            rows={page.data}
            columns={screen.columns}
            renderCell={renderCell}
            renderActions={hasActions ? (row) => <RowActions screen={screen} row={row} api={api} /> : null}
            rowName={(row) => `${screen.noun} ${screen.rowLabel?.(row) || row.id}`}
          />
        )}
        <Table
          containerClassName={page.data.length > 0 ? "hidden @xl:block" : undefined}
          aria-label={label}
          aria-busy={isLoading || undefined}
          className={cn(isLoading && "[&_tbody]:opacity-60")}
        >
          {/* An empty list on a phone is its message alone: headers would only push it sideways. */}
          <TableHeader className={page.data.length === 0 ? "hidden @xl:table-header-group" : undefined}>
            <TableRow>
              {screen.columns.map((column) => (
                <TableHead
                  key={column.key}
                  data-column={column.key}
                  className={cn(columnVisibilityClass(column, columnChoice), column.className)}
                  aria-sort={
                    search.sortProp === column.key
                      ? search.sortDirection === "desc"
                        ? "descending"
                        : "ascending"
                      : undefined
                  }
                >
                  <div className="flex items-center gap-1">{headerControls(column)} </div>
                </TableHead>
              ))}
              {hasActions && (
                <TableHead
                  className="sticky right-0 w-28 bg-card text-right shadow-[-1px_0_0_var(--color-border)]"
                  data-print-hide
                >
                  Actions
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.data.length === 0 ? (
              <TableRow>
                <TableCell
                  colSpan={screen.columns.length + (hasActions ? 1 : 0)}
                  className="h-32 text-center whitespace-normal text-muted-foreground"
                >
                  {emptyMessage}
                </TableCell>
              </TableRow>
            ) : (
              page.data.map((row) => (
                <TableRow key={row.id} data-row-id={row.id} className="group/row">
                  {screen.columns.map((column) => (
                    <TableCell
                      key={column.key}
                      className={cn(columnVisibilityClass(column, columnChoice), column.className)}
                    >
                      {renderCell(column, row)}
                    </TableCell>
                  ))}
                  {hasActions && (
                    <TableCell
                      className="sticky right-0 bg-card text-right shadow-[-1px_0_0_var(--color-border)] group-hover/row:bg-muted/50"
                      data-print-hide
                    >
                      <RowActions screen={screen} row={row} api={api} />
                    </TableCell>
                  )}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <nav
        className="flex items-center justify-between gap-2 text-sm"
        aria-label={label ? `${label} pagination` : "Pagination"}
        data-print-hide
      >
        <span>{rangeText(currentPage, page.total)}</span>
        <div className="flex items-center gap-1">
          <SearchControl
            target={currentPage > 1 ? { page: currentPage - 1 > 1 ? currentPage - 1 : undefined } : null}
            onSearch={onSearch}
          >
            Previous
          </SearchControl>
          <span className="px-2" aria-current="page">
            Page {formatNumber(currentPage)} of {formatNumber(lastPage)}
          </span>
          <SearchControl
            target={currentPage < lastPage ? { page: currentPage + 1 } : null}
            onSearch={onSearch}
          >
            Next
          </SearchControl>
        </div>
      </nav>
    </div>
  );
}

/** A filter as words: 'Company contains "acme"', 'Sensitive is Yes'. */
export function filterText<T>(
  columns: TColumn<T>[],
  key: string,
  value: string,
  dictionaries?: TDictionary,
): string {
  const column = columns.find((c) => c.key === key);
  const header = column?.header ?? key;
  if (column?.filter === "boolean") return `${header} is ${value === "1" ? "Yes" : "No"}`;
  if (column?.filter === "text") return `${header} contains "${value}"`;
  const option = column?.filterOptions?.(dictionaries ?? {}).find((o) => o.value === value);
  if (option) return `${header} is ${option.label}`;
  return `${header}: ${value}`;
}

/** The sort a header link leads to: ascending, then descending, then back to the default. */
function nextSort(search: TListSearch, key: string): Partial<TListSearch> {
  if (search.sortProp !== key) return { sortProp: key, sortDirection: "asc", page: undefined };
  if (search.sortDirection !== "desc") return { sortDirection: "desc", page: undefined };
  return { sortProp: undefined, sortDirection: undefined, page: undefined };
}

/**
 * Sort and page controls. For a table whose state lives in the URL they are real links, so they
 * work before hydration and open in a new tab; a table with its own state (onSearch) gets buttons;
 * with nowhere to go (target null), a disabled button.
 */
function SearchControl({
  target,
  onSearch,
  children,
  variant = "outline",
  className,
  ariaLabel,
}: {
  target: Partial<TListSearch> | null;
  onSearch?: (next: Partial<TListSearch>) => void;
  children: ReactNode;
  variant?: "outline" | "ghost";
  className?: string;
  ariaLabel?: string;
}) {
  if (target === null) {
    return (
      <Button variant={variant} size="sm" className={className} disabled>
        {children}
      </Button>
    );
  }
  if (onSearch) {
    return (
      <Button
        variant={variant}
        size="sm"
        className={className}
        aria-label={ariaLabel}
        onClick={() => onSearch(target)}
      >
        {children}
      </Button>
    );
  }
  return (
    <Button asChild variant={variant} size="sm" className={className}>
      <Link to="." search={((prev: TListSearch) => ({ ...prev, ...target })) as never} aria-label={ariaLabel}>
        {children}
      </Link>
    </Button>
  );
}

function SortIcon({ direction }: { direction?: "asc" | "desc" }) {
  if (direction === "asc") return <ArrowUpIcon aria-hidden />;
  if (direction === "desc") return <ArrowDownIcon aria-hidden />;
  return <ArrowUpDownIcon aria-hidden className="opacity-40" />;
}

type TDeleteFailure = { messages: string[]; canForce: boolean };

/** Edit, print and delete for one row; delete asks 'Are you sure?' and may offer Force delete. */
function RowActions<T extends { id: number }>({
  screen,
  row,
  api,
}: {
  screen: TTableScreen<T>;
  row: T;
  api: TApi;
}) {
  // Deleting is the shipper's work (an admin's too): others are not offered it.
  const mayDelete = useRoles().can("shipper");
  const allowed = (screen.rowActions ?? ["edit", "print", "delete"]).filter(
    (a) => a !== "delete" || mayDelete,
  );
  const router = useRouter();
  const [isConfirming, setIsConfirming] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<TDeleteFailure>();

  const remove = async (force: boolean) => {
    setIsBusy(true);
    try {
      await api.send("DELETE", `${screen.endpoint}/${row.id}${force ? "?force=1" : ""}`);
      toast.success("Operation successful");
      setFailure(undefined);
      await router.invalidate();
      focusPageHeading();
    } catch (error) {
      const body =
        error instanceof ApiError
          ? (error.body as { messages?: string[]; metadata?: { force_flag?: boolean } })
          : null;
      if (error instanceof ApiError && error.status === 422 && body?.metadata?.force_flag && !force) {
        setFailure({ messages: body.messages ?? [], canForce: true });
      } else {
        toast.error("Operation failed", {
          description:
            body?.messages?.join(" ") ||
            (error instanceof Error ? error.message : "Click to confirm delete."),
        });
        setFailure(undefined);
      }
    } finally {
      setIsBusy(false);
      setIsConfirming(false);
    }
  };

  return (
    <div className="flex justify-end gap-1">
      {allowed.includes("edit") && (
        <Button asChild variant="ghost" size="icon" className="size-8">
          <Link to={screen.paths.edit(row.id)} aria-label={`Edit ${screen.noun} ${row.id}`}>
            <PencilIcon />
          </Link>
        </Button>
      )}
      {allowed.includes("print") && (
        <Button asChild variant="ghost" size="icon" className="size-8">
          <Link to={screen.paths.print(row.id)} aria-label={`Print ${screen.noun} ${row.id}`}>
            <PrinterIcon />
          </Link>
        </Button>
      )}
      {allowed.includes("delete") && (
        <Popover open={isConfirming} onOpenChange={setIsConfirming}>
          <PopoverTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="size-8 text-muted-foreground hover:text-destructive"
              aria-label={`Delete ${screen.noun} ${row.id}`}
            >
              <Trash2Icon />
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-56" align="end">
            <p className="text-sm font-medium">Are you sure?</p>
            <p className="mb-3 truncate text-sm text-muted-foreground">
              Delete {screen.noun} {screen.rowLabel ? `“${screen.rowLabel(row)}”` : row.id}
            </p>
            <div className="flex justify-end gap-2">
              <Button variant="outline" size="sm" onClick={() => setIsConfirming(false)}>
                No
              </Button>
              <Button variant="destructive" size="sm" disabled={isBusy} onClick={() => void remove(false)}>
                Yes
              </Button>
            </div>
          </PopoverContent>
        </Popover>
      )}
      <Dialog open={Boolean(failure)} onOpenChange={(open) => !open && setFailure(undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Operation failed</DialogTitle>
            <DialogDescription>
              Other records depend on the {screen.noun}{" "}
              {screen.rowLabel ? `“${screen.rowLabel(row)}”` : row.id}:
            </DialogDescription>
          </DialogHeader>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {failure?.messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
          <DialogFooter>
            <Button variant="outline" onClick={() => setFailure(undefined)}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={isBusy} onClick={() => void remove(true)}>
              {isBusy && <Spinner />}
              {isBusy ? "Deleting..." : "Force delete"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** What a list shows while its page loads. */
export function TableSkeleton({ columns }: { columns: number }) {
  return (
    <div className="space-y-2 rounded-lg border bg-card p-4" role="status" aria-label="Loading">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex gap-4">
          {Array.from({ length: columns }, (_, j) => (
            <Skeleton key={j} className="h-6 flex-1" />
          ))}
        </div>
      ))}
    </div>
  );
}
