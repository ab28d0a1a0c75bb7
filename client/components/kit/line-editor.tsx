import { PlusIcon, Trash2Icon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";

/**
 * Nested lines of a record (a shipment's items or packages): one bordered row per line holding the
 * line's labelled inputs, a remove button per line and an add button shown only while `canAdd`.
 * Rows wrap their inputs on narrow screens instead of scrolling the page sideways.
 */
export function LineEditor<T>({
  label,
  rows,
  rowKey,
  renderRow,
  rowLabel,
  addLabel,
  canAdd,
  onAdd,
  onRemove,
  emptyText,
  className,
}: {
  /** Names the group for assistive technology ("Items"). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  /** The line's inputs; laid out on a responsive grid. */
  renderRow: (row: T, index: number) => ReactNode;
  /** "Item 2": the remove button's accessible name says which line it removes. */
  rowLabel: (row: T, index: number) => string;
  addLabel: string;
  canAdd: boolean;
  onAdd: () => void;
  onRemove: (index: number) => void;
  emptyText: string;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of line rows, not a form fieldset with one legend
    <div role="group" aria-label={label} className={cn("space-y-3", className)}>
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ol className="space-y-3">
          {rows.map((row, index) => (
            <li
              key={rowKey(row, index)}
              className="flex flex-col gap-3 rounded-md border bg-muted/20 p-3 sm:flex-row sm:items-end"
              data-line={index}
            >
              <div className="grid min-w-0 flex-1 grid-cols-2 items-end gap-3 md:grid-cols-4 xl:grid-cols-8">
                {renderRow(row, index)}
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="self-end text-muted-foreground hover:text-destructive"
                aria-label={`Remove ${rowLabel(row, index)}`}
                onClick={() => onRemove(index)}
              >
                <Trash2Icon />
              </Button>
            </li>
          ))}
        </ol>
      )}
      {canAdd && (
        <Button type="button" variant="outline" onClick={onAdd}>
          <PlusIcon />
          {addLabel}
        </Button>
      )}
    </div>
  );
}
