import { writeStreamAtomic } from '../core/atomic.ts';
import { SvcError } from '../core/errors.ts';
import { hashFile } from '../core/file-hash.ts';
import { fetchWithStallTimeout, readCapped } from '../core/outbound.ts';

/** How long the client waits for the registry to send anything before it gives up, by default. */
const DEFAULT_STALL_MS = 60_000;

/** The registry's answers besides bundles and manifests (JSON, error lines) are small; a larger one is not the registry's. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the registry answered with an error: its HTTP status and one line. */
export class RegistryError extends SvcError {
  constructor(
    readonly status: number,
    message: string,
    hint?: string,
    /** the registry's own words, without the request they answer */
    readonly detail?: string,
  ) {
    super(message, hint, status === 400 || status === 404 || status === 413 ? 2 : 1);
    this.name = 'RegistryError';
  }
}

/** The registry stopped sending: nothing came for the client's stall limit. */
export class RegistryStallError extends RegistryError {
  constructor(
    readonly stallMs: number,
    what: string,
  ) {
    super(0, `${what} timed out: no data for ${stallMs / 1000} s`, 'the registry stopped sending; try again');
    this.name = 'RegistryStallError';
  }
}

export type UploadResult = { id: string; ref: string; visibility: string; sha256: string; size: number; duplicate: boolean };
export type BundleInfo = { sha256: string; size: number; visibility: string };

type RequestOptions = {
  body?: string | Blob;
  headers?: Record<string, string>;
  /** the body is a bundle: the answer comes only once all of it is sent, so that wait is no stall */
  sendsBundle?: boolean;
};

/**
 * A client of `svc registry serve` speaking its HTTP protocol. Bundle bytes are streamed both ways:
 * an upload is sent from the file, a download written to a temp file beside the target while
 * hashed, and renamed into place only when its SHA-256 is the one the registry announced.
 * Every wait for the registry, but the one for an upload's answer, ends after `stallMs` without
 * data (RegistryStallError), however long a download takes as a whole.
 */
export class RegistryClient {
  readonly url: string;
  private readonly token: string | null;
  private readonly stallMs: number;

  constructor(opts: { url: string; token?: string | null; stallMs?: number }) {
    this.url = opts.url.replace(/\/+$/, '');
    this.token = opts.token || null;
    this.stallMs = opts.stallMs ?? DEFAULT_STALL_MS;
  }

  /**
   * Uploads a bundle tarball; the registry stores it staged whatever `visibility` asks. `sha256`,
   * when the caller has it already, spares hashing the file again.
   */
  async upload(tarballFile: string, visibility = 'staged', sha256?: string): Promise<UploadResult> {
    const sha = sha256 ?? (await hashFile(tarballFile)).sha256;
    const path = `/artifact?visibility=${encodeURIComponent(visibility)}`;
    const res = await this.request('POST', path, {
      body: Bun.file(tarballFile),
      headers: { 'Content-Type': 'application/gzip', 'X-Svc-Sha256': sha },
      sendsBundle: true,
    });
    return answer<UploadResult>(res, 'POST', path);
  }

  /** Downloads a bundle into `toFile` (atomically), verifying its SHA-256 on the way. */
  async download(id: string, toFile: string): Promise<BundleInfo> {
    const res = await this.request('GET', `/artifact/${encodeURIComponent(id)}`);
    const announced = info(res);
    if (res.body === null) throw new RegistryError(res.status, `the registry sent no body for ${id}`);
    const received = { bytes: 0 };
    await writeStreamAtomic(toFile, checked(res.body, id, announced.sha256, received));
    return { sha256: announced.sha256, size: received.bytes, visibility: announced.visibility };
  }

  /** Widens the bundle's visibility (owner only); a demotion is refused (409). */
  async promote(id: string, target: string): Promise<{ id: string; visibility: string }> {
    const path = `/artifact/${encodeURIComponent(id)}/promote`;
    const res = await this.request('POST', path, { body: JSON.stringify({ target }), headers: { 'Content-Type': 'application/json' } });
    return answer<{ id: string; visibility: string }>(res, 'POST', path);
  }

  private async request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const what = named(method, path);
    const headers: Record<string, string> = { ...opts.headers };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const url = `${this.url}${path}`;
    const init = { method, headers, body: opts.body };
    let res: Response;
    try {
      res = opts.sendsBundle ? await fetch(url, init) : await fetchWithStallTimeout(url, init, this.stallMs, () => new RegistryStallError(this.stallMs, what));
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      throw new RegistryError(0, `cannot reach the registry at ${this.url}: ${(err as Error).message}`, 'is svc registry serve running there?');
    }
    if (res.ok) return res;
    const message = await refusal(res);
    throw new RegistryError(res.status, `${what}: ${message}`, undefined, message);
  }
}

/** A request as errors name it: without its query. */
function named(method: string, path: string): string {
  return `registry ${method} ${path.split('?')[0]}`;
}

/** The registry's own words for a refusal: its JSON `error`, else the first line of its answer. */
async function refusal(res: Response): Promise<string> {
  const fallback = `${res.status} ${res.statusText}`;
  const text = await readCapped(res, MAX_ANSWER_BYTES, () => new Error('too large')).catch(() => '');
  try {
    return (JSON.parse(text) as { error?: string }).error ?? fallback;
  } catch {
    return text.split('\n')[0] || fallback;
  }
}

/** A JSON answer, read no further than MAX_ANSWER_BYTES; not JSON is a SyntaxError. */
async function answer<T>(res: Response, method: string, path: string): Promise<T> {
  const text = await readCapped(res, MAX_ANSWER_BYTES, () => new RegistryError(502, `${named(method, path)}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
  return JSON.parse(text) as T;
}

/**
 * The bundle's chunks as they arrive, hashed and counted into `received`; at the end the digest must be the one
 * the registry announced. A transfer that breaks off is a RegistryError; an error of whoever
 * consumes the chunks (a full disk) is not caught here, so it is reported as what it is.
 */
async function* checked(body: ReadableStream<Uint8Array>, id: string, announced: string, received: { bytes: number }): AsyncGenerator<Uint8Array> {
  const hasher = new Bun.CryptoHasher('sha256');
  const reader = body.getReader();
  try {
    for (;;) {
      const next = await reader.read().catch((err: unknown) => {
        if (err instanceof RegistryError) throw err;
        throw new RegistryError(0, `the download of bundle ${id} broke off: ${(err as Error).message}`, 'try again');
      });
      if (next.done) break;
      hasher.update(next.value);
      received.bytes += next.value.byteLength;
      yield next.value;
    }
  } finally {
    // stopped early (the consumer failed): let the connection go
    await reader.cancel().catch(() => {});
  }
  const sha = hasher.digest('hex');
  if (sha !== announced) throw new RegistryError(502, `bundle ${id} arrived with SHA-256 ${sha}, not the announced ${announced}`, 'the download was damaged on the way; try again');
}

function info(res: Response): BundleInfo {
  const sha256 = res.headers.get('x-svc-sha256') ?? '';
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new RegistryError(502, 'the registry answered without a valid X-Svc-Sha256 header');
  return { sha256, size: Number(res.headers.get('content-length') ?? 0), visibility: res.headers.get('x-svc-visibility') ?? '' };
}
