import { useRouter } from "@tanstack/react-router";
import { DownloadIcon, EyeIcon, FileIcon, StampIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import {
  DOCUMENT_TYPE_LABELS,
  type TShipment,
  type TShipmentDocument,
} from "../../../db/contracts/shipments";
import { DeleteDocument } from "../../components/kit/documents-panel";
import { FilePicker } from "../../components/kit/file-picker";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { ApiError, type TApi } from "../../lib/api";

/** Generates the chosen paperwork; disabled while the choice is what is already generated. */
export function GenerateButton({
  isEnabled,
  hasChoice,
  onGenerate,
}: {
  isEnabled: boolean;
  hasChoice: boolean;
  onGenerate: () => Promise<void>;
}) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <div className="space-y-2">
      <Button
        disabled={!isEnabled || isBusy}
        onClick={async () => {
          setIsBusy(true);
          await onGenerate();
          setIsBusy(false);
        }}
      >
        {isBusy && <Spinner />}
        Generate Paperwork
      </Button>
      {!isEnabled && (
        <p className="text-sm text-muted-foreground">
          {hasChoice
            ? "The chosen documents are already generated: change the choice above to generate others."
            : "Choose the documents to create above."}
        </p>
      )}
    </div>
  );
}

/** Generated and custom documents: download, delete ('Are you sure?' Yes/No), upload custom ones. */
export function ShipmentDocuments({
  api,
  documents,
  ensureSaved,
  onChanged,
  runAction,
}: {
  api: TApi;
  documents: TShipmentDocument[];
  ensureSaved: () => Promise<number>;
  onChanged: (stored: TShipment, removedType?: string) => void;
  runAction: (action: () => Promise<void>, failure: string) => Promise<void>;
}) {
  const [isUploading, setIsUploading] = useState(false);
  const upload = async (files: File[]) => {
    setIsUploading(true);
    await runAction(async () => {
      const id = await ensureSaved();
      const body = new FormData();
      for (const file of files) body.append("documents[]", file);
      let answer: { item?: TShipment; failed?: { name: string; message: string; reason?: string }[] };
      try {
        answer = await api.upload(`/shipments/custom-docs/${id}`, body);
      } catch (error) {
        answer = error instanceof ApiError ? ((error.body as typeof answer) ?? {}) : {};
        if (!answer.failed) {
          for (const file of files)
            toast.error(`${file.name} file upload failed.`, { description: (error as Error).message });
          return;
        }
      }
      for (const failure of answer.failed ?? [])
        toast.error(failure.message ?? `${failure.name} file upload failed.`, {
          description: failure.reason,
        });
      if (answer.item) {
        onChanged(answer.item);
        const count = files.length - (answer.failed?.length ?? 0);
        if (count > 0) toast.success(`${count} file${count === 1 ? "" : "s"} uploaded`);
      }
    }, "Upload failed");
    setIsUploading(false);
  };
  const remove = (doc: TShipmentDocument) =>
    runAction(async () => {
      const id = await ensureSaved();
      const { item } = await api.send<{ item: TShipment }>("DELETE", `/shipments/documents/${id}/${doc.id}`);
      onChanged(item, doc.document_type);
      toast.success("Operation successful");
    }, "Operation failed");
  // The generated certificate of origin, filed with the workspace's shipping forms (for the chamber's stamp).
  const router = useRouter();
  const [isFiling, setIsFiling] = useState(false);
  const fileAsShippingForm = async () => {
    setIsFiling(true);
    await runAction(async () => {
      const id = await ensureSaved();
      let item: { id: number; name: string };
      try {
        ({ item } = await api.send<{ item: { id: number; name: string } }>(
          "POST",
          `/paperwork/shipments/${id}/certificate-of-origin/shipping-form`,
        ));
      } catch (error) {
        // A 409 here is not an edit conflict but 'no certificate generated': the API's message says so.
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        toast.error(error.message || "The certificate could not be filed");
        return;
      }
      toast.success(`Filed as the shipping form “${item.name}”`, {
        action: {
          label: "Open",
          onClick: () => void router.navigate({ href: `/my-shipping-documents/edit-a-form/${item.id}` }),
        },
      });
    }, "The certificate could not be filed");
    setIsFiling(false);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Documents</h2>
        </CardTitle>
        <CardDescription>Generated paperwork and your own documents for this shipment.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No documents yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Shipment documents">
            {documents.map((doc) => (
              <li key={doc.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                <FileIcon className="size-4 text-muted-foreground" aria-hidden />
                {/* The type in full on its own line, the file name under it (wrapping, never cut). */}
                <span className="min-w-0 flex-1 basis-48">
                  <span className="block font-medium">
                    {DOCUMENT_TYPE_LABELS[doc.document_type] ?? doc.document_type}
                  </span>
                  <span className="block text-xs break-all text-muted-foreground">{doc.original_name}</span>
                </span>
                {doc.extension === "pdf" && (
                  <Button asChild variant="ghost" size="sm">
                    <a
                      href={`/api/paperwork/documents/${doc.id}/preview`}
                      target="_blank"
                      rel="noopener"
                      aria-label={`Preview ${doc.original_name}`}
                    >
                      <EyeIcon />
                      Preview
                    </a>
                  </Button>
                )}
                <Button asChild variant="ghost" size="sm">
                  <a href={doc.url} download={doc.original_name} aria-label={`Download ${doc.original_name}`}>
                    <DownloadIcon />
                    Download
                  </a>
                </Button>
                {doc.document_type === "certificate_of_origin" && (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={isFiling}
                    aria-label={`File ${doc.original_name} as a shipping form`}
                    onClick={() => void fileAsShippingForm()}
                  >
                    {isFiling ? <Spinner /> : <StampIcon />}
                    File as shipping form
                  </Button>
                )}
                <DeleteDocument name={doc.original_name} onConfirm={() => void remove(doc)} />
              </li>
            ))}
          </ul>
        )}
        <FilePicker
          label="Upload custom documents"
          busyLabel="Uploading…"
          inputLabel="Upload custom documents"
          isMultiple
          isBusy={isUploading}
          onFiles={(files) => void upload(files)}
        />
      </CardContent>
    </Card>
  );
}
