/** Thrown for any API answer of 400 or more; carries the server's message and field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors?: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.errors = (body as { errors?: Record<string, string[]> } | null)?.errors;
  }
}

/**
 * Sent on every call: proof for the server that the request comes from the app itself (another site
 * cannot add a custom header without a CORS preflight, which the server never grants).
 */
const APP_HEADER = { "x-tradewinds-request": "1" };

export type TFetch = (path: string, init?: RequestInit) => Promise<Response> | Response;

export type TApi = {
  get<T>(path: string): Promise<T>;
  send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T>;
  /** multipart/form-data POST (file uploads). */
  upload<T>(path: string, form: FormData): Promise<T>;
};

/**
 * A small JSON client over a fetch function: the browser's fetch on the client, the app's
 * in-process request function during server rendering. Paths are relative to /api.
 */
export function createApi(fetchFn: TFetch, options: { onUnauthorized?: (path: string) => void } = {}): TApi {
  const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
    let response: Response;
    try {
      response = await fetchFn(`/api${path}`, init);
    } catch {
      throw new ApiError(0, "No response received", null);
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.status === 401) options.onUnauthorized?.(path);
    if (!response.ok) {
      const message = (body as { message?: string } | null)?.message ?? `Service returned ${response.status}`;
      throw new ApiError(response.status, message, body);
    }
    if (body === null) throw new ApiError(response.status, "No response data received", null);
    return body as T;
  };
  return {
    get: (path) => call(path, { headers: { accept: "application/json", ...APP_HEADER } }),
    upload: (path, form) =>
      call(path, { method: "POST", body: form, headers: { accept: "application/json", ...APP_HEADER } }),
    send: (method, path, body) =>
      call(path, {
        method,
        headers: { "content-type": "application/json", accept: "application/json", ...APP_HEADER },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}
