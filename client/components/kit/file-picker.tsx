import { UploadIcon } from "lucide-react";
import { type ReactNode, useId, useRef } from "react";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/**
 * The one file picker: an outline button in the app's style in front of a visually hidden file
 * input (which keeps its accessible name, so tests and assistive tech can still set files on it).
 * The browser's own "Choose Files / No file chosen" control never shows.
 */
export function FilePicker({
  label,
  inputLabel,
  onFiles,
  accept,
  isMultiple = false,
  isBusy = false,
  busyLabel,
  icon = <UploadIcon />,
  id,
}: {
  /** The button's text: 'Upload File(s)'. */
  label: ReactNode;
  /** The input's accessible name: 'Upload files to documents'. */
  inputLabel: string;
  onFiles: (files: File[]) => void;
  accept?: string;
  isMultiple?: boolean;
  isBusy?: boolean;
  busyLabel?: ReactNode;
  icon?: ReactNode;
  id?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const ownId = useId();
  return (
    <>
      <input
        ref={input}
        id={id ?? ownId}
        type="file"
        multiple={isMultiple}
        accept={accept}
        className="sr-only"
        aria-label={inputLabel}
        tabIndex={-1}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length) onFiles(files);
        }}
      />
      <Button type="button" variant="outline" disabled={isBusy} onClick={() => input.current?.click()}>
        {isBusy ? <Spinner /> : icon}
        {isBusy ? (busyLabel ?? label) : label}
      </Button>
    </>
  );
}
