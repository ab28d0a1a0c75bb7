import type { Context } from "hono";
import type { z } from "zod";
import { ZLoginInput, ZRegisterInput } from "../../../db/contracts/auth";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { summarize, toFieldErrors } from "../../lib/validate";
import { isSameOrigin } from "./auth.middleware";
import { logIn, register } from "./auth.routes";

/**
 * The login and register pages are rendered on the server with `<form method="post">`, so they
 * work before (or without) JavaScript: the password travels in a POST body, never in a URL. These
 * handlers take those posts, run the same code as the JSON API and answer with a redirect: on
 * success to where the user was going, on failure back to the form with the same message the API
 * gives (the message goes in the URL; the password never does).
 */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;
const MAX_FORM_BYTES = 8 * 1024;

/** Only same-site paths, like the client's safeNext: no //host, no backslashes, no control characters. */
export function safeNextPath(next: unknown): string | undefined {
  return typeof next === "string" &&
    /^\/(?![/\\])/.test(next) &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not pass
    !/[\\\x00-\x1f\x7f]/.test(next)
    ? next
    : undefined;
}

async function readForm(c: Context<TAppEnv>): Promise<Record<string, string>> {
  if (!FORM_TYPES.test(c.req.header("content-type") ?? "")) {
    throw new AppError("VALIDATION", "Send the form as application/x-www-form-urlencoded.");
  }
  if (Number(c.req.header("content-length") ?? 0) > MAX_FORM_BYTES) {
    throw new AppError("VALIDATION", "The form is too large.");
  }
  const form = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) if (typeof value === "string") values[key] = value;
  return values;
}

function backTo(c: Context<TAppEnv>, path: string, params: Record<string, string | undefined>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const search = query.toString();
  c.header("Cache-Control", "no-store");
  return c.redirect(search ? `${path}?${search}` : path, 303);
}

function messageOf(error: unknown): string | null {
  return error instanceof AppError ? error.message : null;
}

function parseOrMessage<T extends z.ZodType>(schema: T, values: unknown): z.output<T> | string {
  const parsed = schema.safeParse(values);
  return parsed.success ? parsed.data : summarize(toFieldErrors(parsed.error));
}

/** POST /auth/login (form): signs in and redirects to `next` (or /home), else back with the message. */
export async function loginForm(c: Context<TAppEnv>) {
  const next = safeNextPath(c.req.query("next"));
  if (!isSameOrigin(c)) return backTo(c, "/auth/login", { next, error: "Cross-origin request refused" });
  let values: Record<string, string>;
  try {
    values = await readForm(c);
  } catch (error) {
    return backTo(c, "/auth/login", { next, error: messageOf(error) ?? "Login failed" });
  }
  const input = parseOrMessage(ZLoginInput, {
    email: values.email ?? "",
    password: values.password ?? "",
    // The remember-me box is on by default (spec) and cannot be toggled before JavaScript runs.
    rememberMe: values.rememberMe !== "off" && values.rememberMe !== "false",
  });
  if (typeof input === "string") return backTo(c, "/auth/login", { next, error: input });
  try {
    await logIn(c, input);
  } catch (error) {
    const message = messageOf(error);
    if (!message) throw error;
    return backTo(c, "/auth/login", { next, error: message });
  }
  c.header("Cache-Control", "no-store");
  return c.redirect(next ?? "/home", 303);
}

/** POST /auth/register (form): registers and shows the success screen, else back with the message. */
export async function registerForm(c: Context<TAppEnv>) {
  if (!isSameOrigin(c)) return backTo(c, "/auth/register", { error: "Cross-origin request refused" });
  let values: Record<string, string>;
  try {
    values = await readForm(c);
  } catch (error) {
    return backTo(c, "/auth/register", { error: messageOf(error) ?? "Registration failed" });
  }
  const input = parseOrMessage(ZRegisterInput, {
    title: values.title ?? "",
    name: values.name ?? "",
    surname: values.surname ?? "",
    email: values.email ?? "",
    password: values.password ?? "",
  });
  if (typeof input === "string") return backTo(c, "/auth/register", { error: input });
  try {
    await register(c, input);
  } catch (error) {
    const message = messageOf(error);
    if (!message) throw error;
    return backTo(c, "/auth/register", { error: message });
  }
  return backTo(c, "/auth/register", { registered: "1" });
}
