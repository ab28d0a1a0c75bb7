import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import { Separator } from "../../components/ui/separator";
import {
  configFromSetup,
  deleteSetup,
  readSetups,
  saveSetup,
  setupNameError,
  type TSavedSetups,
  type TViewerConfig,
} from "./saved-setups";

/**
 * The Tools modal (spec section 2): Load a saved setup, Save as a named setup, Delete saved setups
 * with 'Really delete?' and Cancel. Setups live in this browser's localStorage.
 */
export function ReportTools({
  open,
  onOpenChange,
  isConfigured,
  currentConfig,
  onLoad,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isConfigured: boolean;
  currentConfig: () => Promise<TViewerConfig | null>;
  onLoad: (config: TViewerConfig) => Promise<void>;
}) {
  const [setups, setSetups] = useState<TSavedSetups>({});
  const [selected, setSelected] = useState("");
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const names = Object.keys(setups).sort((a, b) => a.localeCompare(b));

  useEffect(() => {
    if (!open) return;
    const current = readSetups(window.localStorage);
    setSetups(current);
    setSelected((s) =>
      s && current[s] ? s : (Object.keys(current).sort((a, b) => a.localeCompare(b))[0] ?? ""),
    );
    setConfirming(null);
    setNameError(null);
  }, [open]);

  const save = async () => {
    const error = setupNameError(name);
    setNameError(error);
    if (error || !isConfigured) return;
    const config = await currentConfig();
    if (!config) return;
    const trimmed = name.trim();
    const existed = trimmed in setups;
    const next = saveSetup(window.localStorage, trimmed, config);
    setSetups(next);
    setSelected(trimmed);
    setName("");
    toast.success(existed ? `Setup “${trimmed}” replaced` : `Setup “${trimmed}” saved`);
  };

  const load = async () => {
    const setup = setups[selected];
    if (!setup) return;
    await onLoad(configFromSetup(setup));
    toast.success(`Setup “${selected}” loaded`);
    onOpenChange(false);
  };

  const remove = (target: string) => {
    const next = deleteSetup(window.localStorage, target);
    setSetups(next);
    setConfirming(null);
    if (selected === target) setSelected(Object.keys(next).sort((a, b) => a.localeCompare(b))[0] ?? "");
    toast.success(`Setup “${target}” deleted`);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onEscapeKeyDown={(event) => {
          // Escape in a filled name field clears it (spec section 5) instead of closing the modal.
          if (document.activeElement === nameRef.current && name) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle>Tools</DialogTitle>
          <DialogDescription>Saved report setups are kept in this browser.</DialogDescription>
        </DialogHeader>

        <section aria-labelledby="tools-load" className="grid gap-2">
          <h3 id="tools-load" className="text-sm font-semibold">
            Load
          </h3>
          {names.length === 0 ? (
            <p className="text-sm text-muted-foreground">No saved setups yet.</p>
          ) : (
            <div className="flex gap-2">
              <NativeSelect
                aria-label="Saved setup"
                wrapperClassName="flex-1"
                value={selected}
                onChange={(e) => setSelected(e.target.value)}
              >
                {names.map((n) => (
                  <NativeSelectOption key={n} value={n}>
                    {n}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <Button onClick={() => void load()} disabled={!selected}>
                Load
              </Button>
            </div>
          )}
        </section>

        <Separator />

        <section aria-labelledby="tools-save" className="grid gap-2">
          <h3 id="tools-save" className="text-sm font-semibold">
            Save as
          </h3>
          <Label htmlFor="setup-name">Setup name</Label>
          <div className="flex gap-2">
            <Input
              id="setup-name"
              ref={nameRef}
              value={name}
              disabled={!isConfigured}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? "setup-name-error" : undefined}
              onChange={(e) => {
                setName(e.target.value);
                if (nameError) setNameError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void save();
                } else if (e.key === "Escape") {
                  setName("");
                  setNameError(null);
                }
              }}
            />
            <Button onClick={() => void save()} disabled={!isConfigured || !name.trim()}>
              Save
            </Button>
          </div>
          {nameError && (
            <p id="setup-name-error" className="text-sm text-destructive">
              {nameError}
            </p>
          )}
          {!isConfigured && (
            <p className="text-sm text-muted-foreground">Add row or column fields to the pivot to save it.</p>
          )}
        </section>

        <Separator />

        <section aria-labelledby="tools-delete" className="grid gap-2">
          <h3 id="tools-delete" className="text-sm font-semibold">
            Delete saved setups
          </h3>
          {names.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing to delete.</p>
          ) : (
            <ul className="grid gap-1">
              {names.map((n) => (
                <li key={n} className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5">
                  <span className="truncate text-sm">{n}</span>
                  {confirming === n ? (
                    <span className="flex items-center gap-2">
                      <span className="text-sm font-medium">Really delete?</span>
                      <Button size="sm" variant="destructive" onClick={() => remove(n)}>
                        Delete
                      </Button>
                      <Button size="sm" variant="outline" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                    </span>
                  ) : (
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Delete ${n}`}
                      onClick={() => setConfirming(n)}
                    >
                      Delete
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}
