// The dashboard API as the pages call it: the token sent, `{error}` answers thrown as errors.

const TOKEN_KEY = 'svc-token';

/**
 * With SVC_GUI_TOKEN set, the page is opened as /#token=<token>: the fragment never reaches a
 * server or a log. It is kept for the tab's session and sent with every API call; the fragment
 * then becomes the page's route.
 */
export const token: string | null = (() => {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  }
  return sessionStorage.getItem(TOKEN_KEY);
})();

/** An answer of the API that is not 2xx: its `{error}` message, and its status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { ...init, headers });
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new ApiError(typeof error === 'string' ? error : `${path}: HTTP ${res.status}`, res.status);
  }
  return body as T;
}

/** Answers asked for before the page that reads them was drawn (prefetch), each taken once; `data` once it came. */
type Early = { answer: Promise<unknown>; at: number; data?: unknown };
const early = new Map<string, Early>();
/** An early answer not taken by then is dropped: a later read must not get an old answer. */
const EARLY_MS = 5000;

/**
 * Starts GET `path` now; the first getJson of the same path soon after takes its answer. main.tsx
 * asks for the data of the page the address names while the page's code is still loading.
 * Resolves when the answer came, or the request failed.
 */
export function prefetch(path: string): Promise<void> {
  const asked = early.get(path);
  if (asked) return asked.answer.then(() => {}, () => {});
  const answer = request(path);
  const entry: Early = { answer, at: performance.now() };
  early.set(path, entry);
  // a refusal is read, and shown, by the page's own getJson
  return answer.then(
    (data) => {
      entry.data = data;
    },
    () => {},
  );
}

/** The early answer to `path` asked for soon enough before, when it already came: taken, and the page is drawn with it at once. */
export function takeArrived<T>(path: string): { data: T } | null {
  const asked = early.get(path);
  if (!asked || asked.data === undefined || performance.now() - asked.at >= EARLY_MS) return null;
  early.delete(path);
  return { data: asked.data as T };
}

export function getJson<T>(path: string): Promise<T> {
  const asked = early.get(path);
  early.delete(path);
  return asked && performance.now() - asked.at < EARLY_MS ? (asked.answer as Promise<T>) : request<T>(path);
}

export const postJson = <T>(path: string, body: unknown): Promise<T> =>
  request<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A URL for what cannot send a header (an event stream, a link): the token goes in the query. */
export function withToken(path: string): string {
  if (!token) return path;
  return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/** A multipart form (files and fields) to `path`. */
export const postForm = <T>(path: string, form: FormData): Promise<T> => request<T>(path, { method: 'POST', body: form });

/**
 * A JSON POST whose refusal carries more than its message (a compile's log): the status and the
 * body whatever the status; only a body that is not JSON is thrown, as an ApiError.
 */
export async function postJsonAnswer<T>(path: string, body: unknown): Promise<{ ok: boolean; status: number; body: T }> {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await res.json().catch(() => null)) as T | null;
  if (answer === null) throw new ApiError(`${path}: HTTP ${res.status}`, res.status);
  return { ok: res.ok, status: res.status, body: answer };
}

/** The API path of a checkpoint's route: `/api/checkpoint/<id><rest>`. */
export const checkpointApi = (id: string, rest: string) => `/api/checkpoint/${encodeURIComponent(id)}${rest}`;
