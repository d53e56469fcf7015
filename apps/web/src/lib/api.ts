import { isInlineMediaType, type ApiErrorBody } from "@atende/shared";
import { clearSessionData, STORAGE_KEYS } from "./storage";
import { logFailure } from "./log-failure";

export const API_BASE = "/api";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ApiErrorBody>,
  ) {
    super(body.message ?? body.error ?? `HTTP ${status}`);
  }
  get code(): string | undefined {
    return this.body.error;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
/** Called when the session is gone (a 401 that a refresh could not mend). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

export function setToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
}

/** Ends the session locally (the server already has): clears local data and tells the listeners. */
export function sessionGone(): void {
  clearSessionData();
  for (const l of unauthorizedListeners) l();
}

const refreshedListeners = new Set<(token: string) => void>();
/** Called with each new access token (the socket hands it to the server, which would close it otherwise). */
export function onTokenRefreshed(listener: (token: string) => void): () => void {
  refreshedListeners.add(listener);
  return () => refreshedListeners.delete(listener);
}

let refreshing: Promise<boolean> | null = null;
/** One refresh at a time, shared by every call that needs it. */
let refreshRefused = false;
/** Whether the last refresh was refused by the server (the session is over), not merely unanswered (a page left mid-way). */
export const lastRefreshRefused = () => refreshRefused;

export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(`${API_BASE}/auth/refresh_token`, { method: "POST", credentials: "include" })
    .then(async (res) => {
      refreshRefused = res.status === 401 || res.status === 403;
      if (!res.ok) return false;
      const data = (await res.json()) as { token: string };
      setToken(data.token);
      for (const l of refreshedListeners) l(data.token);
      return true;
    })
    .catch((err: unknown) => {
      logFailure("refreshing the session failed", err);
      return false;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export interface RequestOptions {
  method?: string;
  query?: Record<string, string | number | boolean | undefined | null | (string | number)[]>;
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the refresh-and-retry and logout handling (used by the auth calls themselves). */
  raw?: boolean;
}

function buildUrl(path: string, query?: RequestOptions["query"]): string {
  const url = new URL(`${API_BASE}${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    url.searchParams.set(k, Array.isArray(v) ? JSON.stringify(v) : String(v));
  }
  return url.pathname + url.search;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (opts.body instanceof FormData) payload = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(opts.body);
  }
  return fetch(buildUrl(path, opts.query), {
    method: opts.method ?? "GET",
    headers,
    body: payload,
    credentials: "include",
    signal: opts.signal,
  });
}

/**
 * The one API client: bearer token from local storage; a 403 triggers one token refresh and one retry;
 * a 401 (after a failed refresh) clears the session. Errors are thrown as ApiError with the server body.
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(path, opts);
  if (!opts.raw && (res.status === 403 || res.status === 401) && getToken()) {
    if (await refreshSession()) res = await send(path, opts);
  }
  if (res.status === 401 && !opts.raw) sessionGone();
  const text = await res.text();
  const data = text ? safeJson(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, (data as Partial<ApiErrorBody>) ?? {});
  return data as T;
}

/**
 * A private file (an attachment, an image) fetched with the bearer token, for an object URL: the
 * browser cannot send the token with a plain `<img src>`. A type the server would not show inline
 * (SVG, HTML...) is kept opaque, since a blob: URL opened is a document of this origin.
 */
export async function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  let res = await send(path, { signal });
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await send(path, { signal });
  if (!res.ok) throw new ApiError(res.status, {});
  const blob = await res.blob();
  return isInlineMediaType(blob.type) ? blob : new Blob([blob], { type: "application/octet-stream" });
}

/** A response body as JSON, or `{ message: text }` when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
    // eslint-disable-next-line no-restricted-syntax -- a body that is not JSON is shown as its text
  } catch {
    return { message: text };
  }
}
