import { useRouter } from "@tanstack/react-router";
import { DownloadIcon, FileIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { TDocumentRef } from "../../../db/contracts/products";
import { ApiError, type TApi } from "../../lib/api";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover";
import { FilePicker } from "./file-picker";

type TUploadAnswer = {
  uploaded?: TDocumentRef[];
  failed?: { name: string; message: string; reason?: string }[];
};

/** Uploads files to a record (multipart documents[] + id); one toast per file that failed. */
export async function uploadDocuments(
  api: TApi,
  endpoint: string,
  ownerId: number,
  files: File[],
): Promise<number> {
  const form = new FormData();
  form.append("id", String(ownerId));
  for (const file of files) form.append("documents[]", file);
  let answer: TUploadAnswer;
  try {
    answer = await api.upload<TUploadAnswer>(endpoint, form);
  } catch (error) {
    answer = error instanceof ApiError ? ((error.body as TUploadAnswer) ?? {}) : {};
    if (!answer.failed) {
      for (const file of files)
        toast.error(`${file.name} file upload failed.`, { description: (error as Error).message });
      return 0;
    }
  }
  for (const failure of answer.failed ?? []) {
    toast.error(failure.message ?? `${failure.name} file upload failed.`, { description: failure.reason });
  }
  return answer.uploaded?.length ?? 0;
}

/** The record's attached files: download, delete (after 'Are you sure?') and upload several at once. */
export function DocumentsPanel({
  api,
  endpoint,
  ownerId,
  documents,
  label = "Documents",
}: {
  api: TApi;
  endpoint: string;
  ownerId: number;
  documents: TDocumentRef[];
  label?: string;
}) {
  const router = useRouter();
  const [isUploading, setIsUploading] = useState(false);
  const onFiles = async (files: File[]) => {
    setIsUploading(true);
    const count = await uploadDocuments(api, endpoint, ownerId, files);
    setIsUploading(false);
    if (count) toast.success(`${count} file${count === 1 ? "" : "s"} uploaded`);
    await router.invalidate();
  };
  const remove = async (doc: TDocumentRef) => {
    try {
      await api.send("DELETE", `${endpoint}/${doc.id}`);
      toast.success("Operation successful");
      await router.invalidate();
    } catch (error) {
      toast.error("Operation failed", { description: (error as Error).message });
    }
  };
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>
          <h2>{label}</h2>
        </CardTitle>
        <CardDescription>PDF, images, text, CSV and Office files.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No files attached yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Attached files">
            {documents.map((doc) => (
              <li key={doc.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                <FileIcon className="size-4 text-muted-foreground" />
                <span className="flex-1 truncate">{doc.original_name}</span>
                <Button asChild variant="ghost" size="sm">
                  <a href={doc.url} download aria-label={`Download ${doc.original_name}`}>
                    <DownloadIcon />
                    Download
                  </a>
                </Button>
                <DeleteDocument name={doc.original_name} onConfirm={() => void remove(doc)} />
              </li>
            ))}
          </ul>
        )}
        <FilePicker
          label="Upload File(s)"
          busyLabel="Uploading…"
          inputLabel={`Upload files to ${label.toLowerCase()}`}
          isMultiple
          isBusy={isUploading}
          onFiles={(files) => void onFiles(files)}
        />
      </CardContent>
    </Card>
  );
}

/** The delete button of a stored file, behind the spec's 'Are you sure?' Yes/No. */
export function DeleteDocument({ name, onConfirm }: { name: string; onConfirm: () => void }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Popover open={isOpen} onOpenChange={setIsOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground hover:text-destructive"
          aria-label={`Delete ${name}`}
        >
          <Trash2Icon />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-56" align="end">
        <p className="text-sm font-medium">Are you sure?</p>
        <p className="mb-3 text-sm break-words text-muted-foreground">Delete the file “{name}”</p>
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={() => setIsOpen(false)}>
            No
          </Button>
          <Button
            variant="destructive"
            size="sm"
            onClick={() => {
              setIsOpen(false);
              onConfirm();
            }}
          >
            Yes
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
