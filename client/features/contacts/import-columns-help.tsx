import { DownloadIcon, InfoIcon } from "lucide-react";
import {
  IMPORT_COLUMN_LABELS,
  IMPORT_COLUMNS,
  importTemplateCsv,
  REQUIRED_IMPORT_COLUMNS,
} from "../../../db/contracts/contact-import-columns";
import { Button } from "../../components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover";

/** Saves the template file: the header the importer reads and one example row. */
export function downloadImportTemplate() {
  const url = URL.createObjectURL(new Blob([importTemplateCsv()], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "contacts-template.csv";
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * What an import file needs, in the product rather than the README: the columns (required first)
 * with the other header names each accepts, the separators and encodings read, and a template.
 */
export function ImportColumnsHelp() {
  const fields = Object.keys(IMPORT_COLUMN_LABELS);
  const required = new Set(REQUIRED_IMPORT_COLUMNS);
  const ordered = [...fields.filter((f) => required.has(f)), ...fields.filter((f) => !required.has(f))];
  return (
    <div className="space-y-3 text-sm" data-testid="import-columns-help">
      <p>
        The first line names the columns. Separate them with commas, semicolons or tabs; save as UTF-8 or your
        spreadsheet's Windows default. Countries may be ISO codes (DE) or names in English, German, French,
        Spanish, Italian, Portuguese, Dutch, the Nordic languages, Polish or Czech.
      </p>
      <ul className="max-h-64 space-y-1 overflow-auto rounded border p-2" aria-label="Accepted columns">
        {ordered.map((field) => (
          <li key={field}>
            <span className="font-medium">{IMPORT_COLUMN_LABELS[field]}</span>
            {required.has(field) && <span className="text-destructive"> (required)</span>}
            <span className="text-muted-foreground">
              {" "}
              — also{" "}
              {IMPORT_COLUMNS[field]
                .filter((n) => n !== IMPORT_COLUMN_LABELS[field].toLowerCase())
                .join(", ")}
            </span>
          </li>
        ))}
      </ul>
      <Button variant="outline" size="sm" onClick={downloadImportTemplate}>
        <DownloadIcon />
        Download template CSV
      </Button>
    </div>
  );
}

/** 'CSV columns': the help above, one click from the Import button. */
export function ImportColumnsButton() {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost">
          <InfoIcon />
          CSV columns
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 max-w-[calc(100vw-2rem)]">
        <ImportColumnsHelp />
      </PopoverContent>
    </Popover>
  );
}
