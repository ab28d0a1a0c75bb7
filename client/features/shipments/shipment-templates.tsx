import { FileStackIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import type { TShipment } from "../../../db/contracts/shipments";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import { Spinner } from "../../components/ui/spinner";
import type { TApi } from "../../lib/api";

/**
 * The template chooser: picking a template after fields were touched asks 'This operation might
 * overwrite your data. Continue?' (Ok. / Cancel; Cancel resets the choice). Loading replaces the
 * values, clears ship_date and keeps this shipment's id.
 */
export function TemplateChooser({
  api,
  isTouched,
  onLoad,
}: {
  api: TApi;
  isTouched: () => boolean;
  onLoad: (template: TShipment) => void;
}) {
  const [templates, setTemplates] = useState<{ id: number; name: string }[] | null>(null);
  const [choice, setChoice] = useState("");
  const [isAsking, setIsAsking] = useState(false);
  const [isLoading, setIsLoading] = useState(false);
  useEffect(() => {
    // Spec section 7: templates are the shipments of status template, page 1, size 100.
    api
      .get<{ data: { id: number; name: string }[] }>(
        "/shipments?page=1&per_page=100&filters[status]=template",
      )
      .then((page) => setTemplates(page.data))
      .catch(() => setTemplates([]));
  }, [api]);
  const load = async (id: string) => {
    setIsLoading(true);
    try {
      const { item } = await api.get<{ item: TShipment }>(`/shipments/${id}`);
      onLoad(item);
    } catch (error) {
      toast.error("Could not load the template", { description: (error as Error).message });
    } finally {
      setIsLoading(false);
      setChoice("");
    }
  };
  return (
    <div className="space-y-2">
      <Label htmlFor="template-chooser">Load a template</Label>
      <div className="flex items-center gap-2">
        <NativeSelect
          id="template-chooser"
          wrapperClassName="w-full"
          disabled={templates === null || isLoading}
          value={choice}
          onChange={(e) => {
            const next = e.target.value;
            setChoice(next);
            if (!next) return;
            if (isTouched()) setIsAsking(true);
            else void load(next);
          }}
        >
          <NativeSelectOption value="">
            {templates === null ? "Loading…" : templates.length ? "Choose a template…" : "No templates yet"}
          </NativeSelectOption>
          {(templates ?? []).map((t) => (
            <NativeSelectOption key={t.id} value={String(t.id)}>
              {t.name || `Template #${t.id}`}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        {isLoading && <Spinner />}
      </div>
      <Dialog
        open={isAsking}
        onOpenChange={(open) => {
          if (!open) {
            setIsAsking(false);
            setChoice("");
          }
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Load template</DialogTitle>
            <DialogDescription>This operation might overwrite your data. Continue?</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => {
                setIsAsking(false);
                setChoice("");
              }}
            >
              Cancel
            </Button>
            <Button
              onClick={() => {
                setIsAsking(false);
                void load(choice);
              }}
            >
              Ok.
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** 'Save As Template': asks for the template's name, then stores a copy of this shipment as a template. */
export function SaveAsTemplate({
  defaultName,
  onSave,
  onFailure,
}: {
  defaultName: string;
  onSave: (name: string) => Promise<void>;
  onFailure: (action: () => Promise<void>) => Promise<void>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [name, setName] = useState("");
  const [isBusy, setIsBusy] = useState(false);
  return (
    <>
      <Button
        onClick={() => {
          setName(defaultName);
          setIsOpen(true);
        }}
      >
        <FileStackIcon />
        Save As Template
      </Button>
      <Dialog open={isOpen} onOpenChange={setIsOpen}>
        <DialogContent>
          <form
            className="space-y-4"
            onSubmit={async (e) => {
              e.preventDefault();
              if (!name.trim()) return;
              setIsBusy(true);
              await onFailure(async () => {
                await onSave(name.trim());
                setIsOpen(false);
              });
              setIsBusy(false);
            }}
          >
            <DialogHeader>
              <DialogTitle>Save As Template</DialogTitle>
              <DialogDescription>
                Parties, items, packages, details, freight and insurance are kept; the ship date, tracking
                numbers and documents are not.
              </DialogDescription>
            </DialogHeader>
            <div className="space-y-2">
              <Label htmlFor="template-name">Template name</Label>
              <Input id="template-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setIsOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={!name.trim() || isBusy}>
                {isBusy && <Spinner />}
                {isBusy ? "Saving" : "Save"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
