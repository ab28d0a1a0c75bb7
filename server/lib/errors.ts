/** Application error codes; the app's error handler is the one place that maps them to HTTP statuses. */
export type TErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "VALIDATION"
  | "RATE_LIMITED"
  | "INSUFFICIENT_STORAGE"
  | "UNAVAILABLE";

export const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const satisfies Record<TErrorCode, number>;

export type TFieldErrors = Record<string, string[]>;

/** A failure the user can act on: it carries a code, a message and optionally per-field errors. */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly errors?: TFieldErrors;
  /** Extra top-level members of the JSON body (e.g. the delete API's result/metadata). */
  readonly body?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: TErrorCode,
    message: string,
    options: { errors?: TFieldErrors; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.errors = options.errors;
    this.body = options.body;
    this.headers = options.headers;
  }
}

export const notFound = (message = "Not found") => new AppError("NOT_FOUND", message);
export const unauthenticated = (message = "Authentication failed") =>
  new AppError("UNAUTHENTICATED", message);
export const forbidden = (message = "Authorization failed") => new AppError("FORBIDDEN", message);
export const validationError = (message: string, errors?: TFieldErrors) =>
  new AppError("VALIDATION", message, { errors });
