import { ApiError } from "./api";

/**
 * True when the server answered with something the user can act on (a 4xx with its message). No
 * answer at all (status 0) and a 5xx ('Internal error') get the spec's fallback texts instead.
 */
export const hasServerMessage = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status >= 400 && error.status < 500;
