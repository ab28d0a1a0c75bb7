import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TShipment } from "../../db/contracts/shipments";
import type { TTestContext } from "./setup";

let counter = 0;

/** A valid registration body; overrides win. Each call gets a fresh e-mail address. */
export function buildRegistration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    title: "Ms.",
    name: "Ada",
    surname: `Exporter${counter}`,
    email: `ada${counter}.${Date.now()}@example.com`,
    password: "correct horse battery",
    ...overrides,
  };
}

export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** Registers a user and logs in; returns the Bearer headers, the cookie and the user. */
export async function signUp(ctx: TTestContext, overrides: Record<string, unknown> = {}) {
  const registration = buildRegistration(overrides);
  const reg = await ctx.app.request("/api/register", json(registration));
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  const login = await ctx.app.request(
    "/api/login",
    json({ email: registration.email, password: registration.password, rememberMe: true }),
  );
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const body = (await login.json()) as {
    token: string;
    user: { id: number; workspace_id: number; email: string };
  };
  const cookie = login.headers.get("set-cookie")!.split(";")[0];
  return {
    ...registration,
    token: body.token,
    user: body.user,
    cookie,
    auth: { authorization: `Bearer ${body.token}` },
  };
}

let contactCounter = 0;

/** A valid contact body for the API; overrides win. */
export function buildContact(overrides: Record<string, unknown> = {}) {
  contactCounter += 1;
  return {
    company: `Acme Export ${contactCounter}`,
    partner_type_id: 1,
    tax_id: `TAX-${contactCounter}`,
    contact_1: "Pat Shipper",
    phone_1: "+1 555 0100",
    email_1: `pat${contactCounter}@acme.example`,
    is_sensitive: 0,
    is_restricted: 0,
    country_id: null,
    ...overrides,
  };
}

/** A valid product body for the API; overrides win. */
export const buildProduct = (i: number, overrides: Record<string, unknown> = {}) => ({
  name: `Spectrum analyser ${i}`,
  description: "Bench-top spectrum analyser, 9 kHz to 26.5 GHz",
  product_number: `SA-${i}`,
  country_of_origin_id: 1,
  US_ECCN: "3A992.a",
  HTS: "9030.40.0000",
  unit_value: "12500.00",
  net_weight: "18.5",
  ...overrides,
});

/** A valid licence body naming the given contact; overrides win. */
export const buildLicense = (i: number, contactId: number, overrides: Record<string, unknown> = {}) => ({
  licence_name: `BIS licence ${i}`,
  valid_date: "2026-01-01",
  expiration_date: "2027-01-01",
  reference_number_1: `D${i}`,
  reference_number_2: `R${i}`,
  status: "approved",
  country_id: 1,
  contact_id: contactId,
  ...overrides,
});

/** Sends a JSON request with the caller's Bearer token. */
export function call(
  ctx: TTestContext,
  auth: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  return ctx.app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Creates product number `i` (buildProduct) as the caller; throws unless the API answers 201. */
export async function createProduct(
  ctx: TTestContext,
  auth: Record<string, string>,
  i: number,
  overrides: Record<string, unknown> = {},
) {
  const res = await call(ctx, auth, "POST", "/api/products", buildProduct(i, overrides));
  if (res.status !== 201) throw new Error(`product: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: { id: number; product_number: string; unit_value: string } }).item;
}

/** Creates an empty draft shipment as the caller; throws unless the API answers 201. */
export async function createDraft(ctx: TTestContext, auth: Record<string, string>): Promise<TShipment> {
  const res = await call(ctx, auth, "POST", "/api/shipments");
  if (res.status !== 201) throw new Error(`draft: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: TShipment }).item;
}

/** The newest invitation link mailed to `email` (the outbox), as its path and query. */
export function invitationLinkFor(ctx: TTestContext, email: string): string {
  const outbox = path.join(ctx.dataDir, "outbox");
  const mails = readdirSync(outbox)
    .sort()
    .map((f) =>
      readFileSync(path.join(outbox, f), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "="),
    )
    .filter((mail) => mail.includes(`To: ${email}`) && mail.includes("/auth/accept-invitation/"));
  const link = mails.at(-1)?.match(/\/auth\/accept-invitation\/\d+\?expires=\d+&signature=[0-9a-f]{64}/)?.[0];
  if (!link) throw new Error(`no invitation mailed to ${email}`);
  return link;
}

/** An admin invites a colleague with the roles; the colleague accepts and is signed in. */
export async function joinAs(ctx: TTestContext, admin: { auth: Record<string, string> }, roles: string[]) {
  const person = buildRegistration();
  const invited = await call(ctx, admin.auth, "POST", "/api/workspace/members", {
    email: person.email,
    title: person.title,
    name: person.name,
    surname: person.surname,
    roles,
  });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const link = invitationLinkFor(ctx, person.email);
  const [, id, query] = link.match(/accept-invitation\/(\d+)\?(.*)$/)!;
  const accepted = await ctx.app.request(
    `/api/invitations/${id}/accept?${query}`,
    json({ password: person.password }),
  );
  if (accepted.status !== 201) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
  const body = (await accepted.json()) as {
    token: string;
    user: { id: number; workspace_id: number; email: string };
  };
  return { ...person, token: body.token, user: body.user, auth: { authorization: `Bearer ${body.token}` } };
}
