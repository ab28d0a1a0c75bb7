import { Columns3Icon, MoreHorizontalIcon } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Button } from "../ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover";
import type { TColumn, TColumnPriority } from "./entity-config";

/**
 * A column's classes by priority: it shows once the table (a size container) is wide enough. The
 * class names are written out whole so Tailwind finds them.
 */
const PRIORITY_CLASS: Record<TColumnPriority, string> = {
  1: "",
  2: "hidden @3xl:table-cell",
  3: "hidden @5xl:table-cell",
  4: "hidden @6xl:table-cell",
  5: "hidden @[90rem]:table-cell",
};

/** A column's priority: its own, 4 for the older isLowPriority flag, else 2. */
export function priorityOf<T>(column: TColumn<T>): TColumnPriority {
  return column.priority ?? (column.isLowPriority ? 4 : 2);
}

/** What the user chose in the column chooser: a column key → shown (true) or hidden (false). */
export type TColumnChoice = Record<string, boolean>;

/** Classes that show or hide a column: the user's choice first, else its priority against the width. */
export function columnVisibilityClass<T>(column: TColumn<T>, choice: TColumnChoice): string {
  const chosen = choice[column.key];
  if (chosen === false) return "hidden";
  if (chosen === true) return "";
  return PRIORITY_CLASS[priorityOf(column)];
}

const CHOICE_PREFIX = "tradewinds.columns.";

/**
 * The column choice for one list, remembered in this browser. It is read after hydration (the server
 * renders the default columns), so the first paint matches the server's.
 */
export function useColumnChoice(listKey: string) {
  const [choice, setChoice] = useState<TColumnChoice>({});
  useEffect(() => {
    try {
      const stored = window.localStorage.getItem(CHOICE_PREFIX + listKey);
      if (stored) setChoice(JSON.parse(stored) as TColumnChoice);
    } catch {
      // Unreadable or blocked storage: the default columns.
    }
  }, [listKey]);
  const save = (next: TColumnChoice) => {
    setChoice(next);
    try {
      if (Object.keys(next).length)
        window.localStorage.setItem(CHOICE_PREFIX + listKey, JSON.stringify(next));
      else window.localStorage.removeItem(CHOICE_PREFIX + listKey);
    } catch {
      // Blocked storage: the choice lasts for this page.
    }
  };
  return [choice, save] as const;
}

/** 'Columns': a checkbox per column; the choice is remembered for this list in this browser. */
export function ColumnChooser<T>({
  columns,
  choice,
  onChange,
  shownNow,
}: {
  columns: TColumn<T>[];
  choice: TColumnChoice;
  onChange: (next: TColumnChoice) => void;
  /** The columns the table shows at this moment (its width and the choice decide). */
  shownNow: () => Set<string>;
}) {
  const [shown, setShown] = useState<Set<string>>(new Set());
  // A table whose every column always shows has nothing to choose.
  if (columns.every((column) => priorityOf(column) === 1)) return null;
  return (
    <Popover onOpenChange={(open) => open && setShown(shownNow())}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="hidden sm:inline-flex">
          <Columns3Icon />
          Columns
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-64 space-y-2">
        <fieldset className="space-y-1.5">
          <legend className="mb-1 text-sm font-medium">Columns to show</legend>
          {columns.map((column) => {
            const id = `column-choice-${column.key}`;
            const isShown = choice[column.key] ?? shown.has(column.key);
            const isAuto = choice[column.key] === undefined && priorityOf(column) > 1;
            return (
              <div key={column.key} className="flex items-center gap-2 text-sm">
                <input
                  id={id}
                  type="checkbox"
                  checked={isShown}
                  onChange={(e) => {
                    onChange({ ...choice, [column.key]: e.target.checked });
                    setShown((now) => {
                      const next = new Set(now);
                      if (e.target.checked) next.add(column.key);
                      else next.delete(column.key);
                      return next;
                    });
                  }}
                />
                <label htmlFor={id} className="flex-1">
                  {column.header}
                </label>
                {isAuto && <span className="text-xs text-muted-foreground">by width</span>}
              </div>
            );
          })}
        </fieldset>
        <Button variant="link" size="sm" className="px-0" onClick={() => onChange({})}>
          Reset to the default columns
        </Button>
      </PopoverContent>
    </Popover>
  );
}

/** The columns a card uses: its status, title and detail lines. */
export function cardColumns<T>(columns: TColumn<T>[]) {
  const hasRoles = columns.some((c) => c.card);
  if (hasRoles) {
    return {
      status: columns.find((c) => c.card === "status"),
      title: columns.find((c) => c.card === "title"),
      details: columns.filter((c) => c.card === "detail"),
    };
  }
  const [title, ...rest] = columns;
  return {
    status: undefined,
    title,
    details: rest.filter((c) => priorityOf(c) === 1).slice(0, 4),
  };
}

/**
 * The rows as cards, for a phone: the status and row menu on top, the title, then the details with
 * their headers. Shown instead of the table while the table is narrower than 36rem.
 */
export function RowCards<T extends { id: number }>({
  rows,
  columns,
  renderCell,
  renderActions,
  rowName,
}: {
  rows: T[];
  columns: TColumn<T>[];
  renderCell: (column: TColumn<T>, row: T) => ReactNode;
  /** The row's actions, shown in the card's menu; null for a read-only list. */
  renderActions: ((row: T) => ReactNode) | null;
  rowName: (row: T) => string;
}) {
  const { status, title, details } = cardColumns(columns);
  return (
    <ul className="divide-y @xl:hidden" data-testid="row-cards">
      {rows.map((row) => (
        <li key={row.id} data-row-id={row.id} className="space-y-1.5 p-3">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 font-medium">{title && renderCell(title, row)}</div>
            {renderActions && (
              <Popover>
                <PopoverTrigger asChild>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 shrink-0"
                    aria-label={`Actions: ${rowName(row)}`}
                  >
                    <MoreHorizontalIcon />
                  </Button>
                </PopoverTrigger>
                <PopoverContent align="end" className="w-auto p-2">
                  {renderActions(row)}
                </PopoverContent>
              </Popover>
            )}
          </div>
          {status && <div>{renderCell(status, row)}</div>}
          {details.length > 0 && (
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              {details.map((column) => (
                <CardDetail key={column.key} header={column.header}>
                  {renderCell(column, row)}
                </CardDetail>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ul>
  );
}

function CardDetail({ header, children }: { header: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{header}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}
