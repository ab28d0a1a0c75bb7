import { revalidateLogic, useForm } from "@tanstack/react-form";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ZScreeningSearch } from "../../../db/contracts/screening";
import { PageHeader } from "../../components/app/screens";
import { Form, SubmitButton } from "../../components/kit/form";
import { TextField } from "../../components/kit/form-fields";
import { Card, CardContent } from "../../components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table";
import type { TApi } from "../../lib/api";
import { ScreeningStatus } from "./screening-status";

type TSearchAnswer = {
  headers: string[];
  data: {
    name: string;
    matched_name: string;
    score: number;
    source_list: string;
    entity_type: string;
    programs: string[];
    addresses: string[];
    countries: string[];
  }[];
  status: "passed" | "failed";
  multiple: boolean;
  lists: { source: string; version_date: string }[];
};

export type TSearchValues = { keywords: string; name: string; address: string };

/** Spec: whitespace in the keyword becomes commas. */
export const keywordsToQuery = (keywords: string) => keywords.trim().split(/\s+/).filter(Boolean).join(",");

/** The restricted-party search: keyword, entity name and address, each 2–255 characters, one at least. */
export function ScreeningSearch({ api, initial }: { api: TApi; initial: Partial<TSearchValues> }) {
  const [answer, setAnswer] = useState<TSearchAnswer>();
  const navigate = useNavigate();
  const form = useForm({
    defaultValues: {
      keywords: initial.keywords ?? "",
      name: initial.name ?? "",
      address: initial.address ?? "",
    },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ZScreeningSearch },
    onSubmit: async ({ value }) => {
      const params = new URLSearchParams();
      if (value.keywords.trim()) params.set("keywords", keywordsToQuery(value.keywords));
      if (value.name.trim()) params.set("name", value.name.trim());
      if (value.address.trim()) params.set("address", value.address.trim());
      // The terms go into the URL, so the results can be bookmarked, shared and opened again.
      const terms = Object.fromEntries(
        (["keywords", "name", "address"] as const)
          .map((key) => [key, value[key].trim() || undefined] as const)
          .filter(([, v]) => v),
      );
      void navigate({ to: "/restricted-party-screening/search", search: terms, replace: true });
      try {
        setAnswer(await api.get<TSearchAnswer>(`/screenings/find-contact?${params}`));
      } catch (error) {
        toast.error("Load error.", { description: (error as Error).message });
      }
    },
  });
  // Opened with terms in the URL ('See the results' from a contact, a bookmark): search at once.
  const hasRun = useRef(false);
  useEffect(() => {
    if (hasRun.current) return;
    hasRun.current = true;
    if (initial.keywords?.trim() || initial.name?.trim() || initial.address?.trim()) void form.handleSubmit();
  }, [form, initial]);
  return (
    <section className="space-y-6">
      <PageHeader title="Restricted Party Search" />
      <Card>
        <CardContent>
          <Form className="grid gap-4 sm:grid-cols-3" onSubmit={form.handleSubmit}>
            <form.Field name="keywords">{(field) => <TextField field={field} label="Keyword" />}</form.Field>
            <form.Field name="name">{(field) => <TextField field={field} label="Entity name" />}</form.Field>
            <form.Field name="address">{(field) => <TextField field={field} label="Address" />}</form.Field>
            <div className="sm:col-span-3">
              <form.Subscribe selector={(s) => s.isSubmitting}>
                {(isBusy) => <SubmitButton isBusy={isBusy} label="Search" busyLabel="Searching" />}
              </form.Subscribe>
            </div>
          </Form>
        </CardContent>
      </Card>
      {answer && (
        <section aria-label="Search results" className="space-y-3">
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <ScreeningStatus status={answer.status} />
            {answer.multiple && <span className="font-medium text-destructive">Multiple results found!</span>}
            <span className="text-muted-foreground">
              Screened against {answer.lists.map((l) => `${l.source} (${l.version_date})`).join(", ")}
            </span>
          </div>
          {answer.data.length === 0 ? (
            <p className="rounded-lg border p-6 text-center text-muted-foreground">No data found</p>
          ) : (
            <div className="rounded-lg border bg-card">
              <Table>
                <TableHeader>
                  <TableRow>
                    {answer.headers.map((h) => (
                      <TableHead key={h}>{h}</TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {answer.data.map((row) => (
                    <TableRow key={`${row.source_list}:${row.name}:${row.matched_name}`}>
                      <TableCell className="font-medium">{row.name}</TableCell>
                      <TableCell>{row.matched_name}</TableCell>
                      <TableCell className="tabular-nums">{row.score.toFixed(3)}</TableCell>
                      <TableCell>{row.source_list}</TableCell>
                      <TableCell>{row.entity_type}</TableCell>
                      <TableCell className="max-w-48 whitespace-normal">{row.programs.join(", ")}</TableCell>
                      <TableCell className="max-w-64 whitespace-normal">
                        {row.addresses.slice(0, 2).join("; ")}
                      </TableCell>
                      <TableCell>{row.countries.join(", ")}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </section>
      )}
    </section>
  );
}
