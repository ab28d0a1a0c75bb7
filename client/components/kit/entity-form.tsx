import { type AnyFieldApi, type AnyFormApi, revalidateLogic, useForm } from "@tanstack/react-form";
import { useNavigate, useRouter } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import type { TDictionary } from "../../../db/contracts/dictionary";
import type { TDocumentRef } from "../../../db/contracts/products";
import type { TApi } from "../../lib/api";
import { focusPageHeading } from "../../lib/focus";
import { useRoles } from "../../lib/roles";
import { PageHeader } from "../app/screens";
import { Alert, AlertDescription, AlertTitle } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardContent } from "../ui/card";
import { DocumentsPanel, uploadDocuments } from "./documents-panel";
import { payloadOf, type TEntityScreen } from "./entity-config";
import { EntityField } from "./entity-fields";
import { FilePicker } from "./file-picker";
import { Form, SubmitButton } from "./form";
import { applyServerErrors, saveFailure, type TSaveFailure } from "./server-errors";

type TProps<T extends { id: number }> = {
  screen: TEntityScreen<T>;
  item: T | null;
  dictionaries: TDictionary;
  api: TApi;
  /** The server's create defaults (GET /{entity}/edit). */
  defaults?: Record<string, unknown>;
  /** Shown between the heading and the form (e.g. a contact's screening status). */
  intro?: ReactNode;
  /** The screen's contract (screen.loadSchema, loaded with the form's chunk). */
  schema: z.ZodType;
};

/**
 * The shared edit form: fields from the screen's configuration, validated with the contract the
 * server uses. Save is disabled until something changed. After saving a new record it goes where
 * the spec says (contacts: the list; others: the record's edit page); an existing one reloads.
 */
export function EntityForm<T extends { id: number }>({
  screen,
  item,
  dictionaries,
  api,
  defaults,
  intro,
  schema,
}: TProps<T>) {
  const navigate = useNavigate();
  const router = useRouter();
  // Files chosen before the record exists (e.g. a new wiki entry) upload right after it is created.
  const [pendingFiles, setPendingFiles] = useState<File[]>([]);
  // The last save's failure, shown under the form until the next attempt.
  const [failure, setFailure] = useState<TSaveFailure | null>(null);
  const initial = item ? screen.toForm(item) : screen.blank(defaults ?? {});
  const form = useForm({
    defaultValues: initial,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: schema as never },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      try {
        const body = payloadOf(screen, value);
        const saved = item
          ? await api.send<{ item: T }>("PUT", `${screen.endpoint}/${item.id}`, body)
          : await api.send<{ item: T }>("POST", screen.endpoint, body);
        const notice = await screen.savedNotice?.(saved.item, api).catch(() => null);
        if (notice) {
          toast.warning(notice.title, {
            description: notice.description,
            duration: 15_000,
            action: { label: notice.linkLabel, onClick: () => void navigate({ to: notice.to }) },
          });
        } else toast.success("Save successful");
        if (!item && screen.documents && pendingFiles.length) {
          await uploadDocuments(api, screen.documents.endpoint, saved.item.id, pendingFiles);
        }
        if (!item) {
          await navigate({
            to: screen.afterCreate === "list" ? screen.paths.list : screen.paths.edit(saved.item.id),
          });
        } else {
          formApi.reset(screen.toForm(saved.item));
          await router.invalidate();
          focusPageHeading();
        }
      } catch (error) {
        applyServerErrors(formApi as unknown as AnyFormApi, error, "Save failed");
        const failure = saveFailure(error);
        setFailure(failure);
        toast.error(failure.toast);
      }
    },
  });

  // Contacts, products, licences and the like are the shipper's work (an admin's too).
  const mayEdit = useRoles().can("shipper");
  return (
    <section className="max-w-4xl">
      <PageHeader title={formHeading(screen, item)}>
        <Button variant="outline" onClick={() => router.history.back()}>
          <ArrowLeftIcon />
          Back
        </Button>
      </PageHeader>
      {intro}
      <Card>
        <CardContent>
          <Form className="grid gap-5 sm:grid-cols-2" onSubmit={form.handleSubmit}>
            {!mayEdit && (
              <p className="text-sm text-muted-foreground sm:col-span-2">
                Read only: changing this needs the Shipper role.
              </p>
            )}
            <fieldset disabled={!mayEdit} className="grid gap-5 sm:col-span-2 sm:grid-cols-2">
              {screen.fields.map((config) => (
                <form.Subscribe
                  key={config.name}
                  selector={(s) => (config.requiredWhen ? Boolean(s.values[config.requiredWhen]) : false)}
                >
                  {(isFlagOn) => (
                    <form.Field name={config.name}>
                      {(field) => (
                        <EntityField
                          config={config}
                          field={field as unknown as AnyFieldApi}
                          dictionaries={dictionaries}
                          isRequired={Boolean(config.isRequired) || isFlagOn}
                        />
                      )}
                    </form.Field>
                  )}
                </form.Subscribe>
              ))}
              {!item && screen.documents?.chooseOnCreate && (
                <div className="space-y-2 sm:col-span-2">
                  <p className="text-sm font-medium">Files</p>
                  <div className="flex flex-wrap items-center gap-3">
                    <FilePicker
                      id="pending-files"
                      label={pendingFiles.length ? "Choose other files" : "Choose files"}
                      inputLabel="Files"
                      isMultiple
                      onFiles={setPendingFiles}
                    />
                    {pendingFiles.length > 0 && (
                      <p className="text-sm text-muted-foreground">
                        {pendingFiles.length === 1 ? "1 file" : `${pendingFiles.length} files`} will upload
                        when you save: {pendingFiles.map((f) => f.name).join(", ")}
                      </p>
                    )}
                  </div>
                </div>
              )}
            </fieldset>
            {mayEdit && (
              <div className="flex gap-2 sm:col-span-2">
                <form.Subscribe selector={(s) => [s.isDirty && !s.isDefaultValue, s.isSubmitting] as const}>
                  {([isChanged, isBusy]) => (
                    <SubmitButton
                      isBusy={isBusy}
                      disabled={!isChanged && pendingFiles.length === 0}
                      label={screen.saveLabel}
                      busyLabel="Saving"
                    />
                  )}
                </form.Subscribe>
              </div>
            )}
            {failure && (
              <Alert variant="destructive" className="sm:col-span-2" data-testid="save-failure">
                <AlertTitle className="line-clamp-none">{failure.title}</AlertTitle>
                <AlertDescription>{failure.cause}</AlertDescription>
              </Alert>
            )}
          </Form>
        </CardContent>
      </Card>
      {item && screen.documents && (
        <DocumentsPanel
          api={api}
          endpoint={screen.documents.endpoint}
          ownerId={item.id}
          documents={(item as unknown as { documents?: TDocumentRef[] }).documents ?? []}
          label={screen.documents.label}
        />
      )}
    </section>
  );
}

/** The heading for the page's actual mode: 'Create Contact', or 'Edit Contact — Acme Precision Inc.'. */
export function formHeading<T extends { id: number }>(screen: TEntityScreen<T>, item: T | null): string {
  if (!item) return screen.createTitle;
  const label = screen.rowLabel?.(item)?.trim();
  return label ? `${screen.editTitle} — ${label}` : screen.editTitle;
}
