import { revalidateLogic, useForm } from "@tanstack/react-form";
import { getRouteApi, useRouter } from "@tanstack/react-router";
import { type ChangeEvent, useState } from "react";
import { toast } from "sonner";
import {
  EXPORTER_OTHER_ID_TYPES,
  type TExporterProfile,
  ZExporterProfileInput,
} from "../../db/contracts/exporter-profile";
import { PARTY_ID_LABELS } from "../../db/contracts/party-ids";
import { PageHeader } from "../components/app/screens";
import { contractErrors, Form, SubmitButton } from "../components/kit/form";
import { SelectField, TextField } from "../components/kit/form-fields";
import { applyServerErrors } from "../components/kit/server-errors";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Label } from "../components/ui/label";

// The route's hooks by its id: the route file (./exporter-profile) imports this screen lazily, not the other way round.
const exporterProfileRoute = getRouteApi("/user/exporter-profile");

const TEXT_FIELDS = [
  "company",
  "street",
  "city",
  "state_province",
  "postal_code",
  "ein",
  "eori",
  "other_id",
  "phone",
  "email",
  "letterhead",
  "signatory_name",
  "signatory_title",
] as const;

type TValues = Record<(typeof TEXT_FIELDS)[number] | "country_id" | "other_id_type", string>;

const toValues = (profile: TExporterProfile): TValues => ({
  ...(Object.fromEntries(TEXT_FIELDS.map((key) => [key, profile[key] ?? ""])) as Record<
    (typeof TEXT_FIELDS)[number],
    string
  >),
  country_id: profile.country_id ? String(profile.country_id) : "",
  other_id_type: profile.other_id_type ?? "",
});

/** The workspace's legal entity: what the documents print as exporter and seller by default. */
export function ExporterProfileScreen() {
  const { profile, countries } = exporterProfileRoute.useLoaderData();
  const { api } = exporterProfileRoute.useRouteContext();
  const router = useRouter();
  const form = useForm({
    defaultValues: toValues(profile),
    // The server's own rules, checked on submit and then on every change (a fixed field clears at once).
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ({ value }) => contractErrors(ZExporterProfileInput, value) },
    onSubmit: async ({ value, formApi }) => {
      try {
        const saved = await api.send<{ item: TExporterProfile }>("PUT", "/exporter-profile", {
          ...value,
          country_id: value.country_id ? Number(value.country_id) : null,
        });
        formApi.reset(toValues(saved.item));
        toast.success("Exporter profile saved");
        await router.invalidate();
      } catch (error) {
        toast.error(applyServerErrors(formApi, error, "The exporter profile could not be saved"));
      }
    },
  });
  const text = (name: (typeof TEXT_FIELDS)[number], label: string, type = "text") => (
    <form.Field name={name}>{(field) => <TextField field={field} label={label} type={type} />}</form.Field>
  );
  return (
    <section className="max-w-4xl">
      <PageHeader title="Exporter Profile" />
      <Form className="grid gap-6" onSubmit={form.handleSubmit}>
        <fieldset disabled={!profile.editable} className="grid gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Legal entity</CardTitle>
              <CardDescription>
                {profile.editable
                  ? "Printed as exporter and seller on invoices, packing lists and certificates of origin when a shipment names no exporter of record."
                  : "Only an admin of the workspace can change the exporter profile."}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <div className="sm:col-span-2">{text("company", "Company name")}</div>
              <div className="sm:col-span-2">{text("street", "Street")}</div>
              {text("city", "City")}
              {text("state_province", "State / province")}
              {text("postal_code", "Postal code")}
              <form.Field name="country_id">
                {(field) => (
                  <SelectField
                    field={field}
                    label="Country"
                    placeholder="Choose…"
                    options={countries.map((c) => ({ value: String(c.id), label: c.label }))}
                  />
                )}
              </form.Field>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Identifiers and contact</CardTitle>
              <CardDescription>
                The EIN and EORI are printed under the exporter on the invoices.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              {text("ein", "EIN (12-3456789)")}
              {text("eori", "EORI (e.g. DE123456789012345)")}
              <form.Field name="other_id_type">
                {(field) => (
                  <SelectField
                    field={field}
                    label="Other identifier type"
                    placeholder="None"
                    options={EXPORTER_OTHER_ID_TYPES.map((t) => ({ value: t, label: PARTY_ID_LABELS[t] }))}
                  />
                )}
              </form.Field>
              {text("other_id", "Other identifier")}
              {text("phone", "Phone", "tel")}
              {text("email", "E-mail", "email")}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Letterhead and signatory</CardTitle>
              <CardDescription>
                The letterhead line is printed under the company name at the top of every document; the
                signatory signs when a shipment names no one.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <div className="sm:col-span-2">{text("letterhead", "Letterhead line")}</div>
              {text("signatory_name", "Default signatory: name")}
              {text("signatory_title", "Default signatory: title")}
            </CardContent>
          </Card>
        </fieldset>
        {profile.editable ? (
          <form.Subscribe selector={(s) => s.isSubmitting}>
            {(isSubmitting) => <SubmitButton isBusy={isSubmitting} label="Save profile" />}
          </form.Subscribe>
        ) : null}
      </Form>
      <LogoCard profile={profile} />
    </section>
  );
}

const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** The logo printed in the documents' header: PNG or JPEG under 2 MB, uploaded on choosing it. */
function LogoCard({ profile }: { profile: TExporterProfile }) {
  const { api } = exporterProfileRoute.useRouteContext();
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string) => {
    setIsBusy(true);
    try {
      await action();
      toast.success(done);
      await router.invalidate();
    } catch (error) {
      toast.error((error as Error).message || "The logo could not be changed");
    } finally {
      setIsBusy(false);
    }
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!["image/png", "image/jpeg"].includes(file.type))
      return void toast.error("You can only upload JPG/PNG file!");
    if (file.size >= LOGO_MAX_BYTES) return void toast.error("Image must smaller than 2MB!");
    const form = new FormData();
    form.append("logo", file);
    void run(() => api.upload("/exporter-profile/logo", form), "Logo uploaded");
  };
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Logo</CardTitle>
        <CardDescription>
          Printed beside the title of every document when the profile is the exporter. JPG or PNG, under 2 MB.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        {profile.logo_url ? (
          <img
            src={profile.logo_url}
            alt="Exporter logo"
            className="h-12 max-w-40 rounded border object-contain"
          />
        ) : (
          <span className="text-sm text-muted-foreground">No logo yet.</span>
        )}
        {profile.editable ? (
          <>
            <Label htmlFor="exporter-logo" className="sr-only">
              Logo image
            </Label>
            <input
              id="exporter-logo"
              type="file"
              accept="image/png,image/jpeg"
              disabled={isBusy}
              onChange={onChange}
              className="text-sm"
            />
            {profile.logo_url ? (
              <Button
                type="button"
                variant="outline"
                disabled={isBusy}
                onClick={() => run(() => api.send("DELETE", "/exporter-profile/logo"), "Logo removed")}
              >
                Remove logo
              </Button>
            ) : null}
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
