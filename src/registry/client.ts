import { writeStreamAtomic } from '../core/atomic.ts';
import { SvcError } from '../core/errors.ts';
import { hashFile } from '../core/file-hash.ts';

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

export type UploadResult = { id: string; ref: string; visibility: string; sha256: string; size: number; duplicate: boolean };
export type BundleInfo = { sha256: string; size: number; visibility: string };

/**
 * A client of `svc registry serve` speaking its HTTP protocol. Bundle bytes are streamed both ways:
 * an upload is sent from the file, a download written to a temp file beside the target while
 * hashed, and renamed into place only when its SHA-256 is the one the registry announced.
 */
export class RegistryClient {
  readonly url: string;
  private readonly token: string | null;

  constructor(opts: { url: string; token?: string | null }) {
    this.url = opts.url.replace(/\/+$/, '');
    this.token = opts.token || null;
  }

  /**
   * Uploads a bundle tarball; the registry stores it staged whatever `visibility` asks. `sha256`,
   * when the caller has it already, spares hashing the file again.
   */
  async upload(tarballFile: string, visibility = 'staged', sha256?: string): Promise<UploadResult> {
    const sha = sha256 ?? (await hashFile(tarballFile)).sha256;
    const res = await this.request('POST', `/artifact?visibility=${encodeURIComponent(visibility)}`, {
      body: Bun.file(tarballFile),
      headers: { 'Content-Type': 'application/gzip', 'X-Svc-Sha256': sha },
    });
    return (await res.json()) as UploadResult;
  }

  /** The bundle's digest, size and visibility without its bytes; null when the registry has no such id. */
  async head(id: string): Promise<BundleInfo | null> {
    const res = await this.request('HEAD', `/artifact/${encodeURIComponent(id)}`, { allow404: true });
    if (res.status === 404) return null;
    return info(res);
  }

  /** Downloads a bundle into `toFile` (atomically), verifying its SHA-256 on the way. */
  async download(id: string, toFile: string): Promise<BundleInfo> {
    const res = await this.request('GET', `/artifact/${encodeURIComponent(id)}`);
    const announced = info(res);
    if (res.body === null) throw new RegistryError(res.status, `the registry sent no body for ${id}`);
    const hasher = new Bun.CryptoHasher('sha256');
    let size = 0;
    const body = res.body;
    async function* hashed(): AsyncGenerator<Uint8Array> {
      for await (const chunk of body) {
        hasher.update(chunk);
        size += chunk.byteLength;
        yield chunk;
      }
      const sha = hasher.digest('hex');
      if (sha !== announced.sha256) throw new RegistryError(502, `bundle ${id} arrived with SHA-256 ${sha}, not the announced ${announced.sha256}`, 'the download was damaged on the way; try again');
    }
    await writeStreamAtomic(toFile, hashed());
    return { sha256: announced.sha256, size, visibility: announced.visibility };
  }

  /** The stored manifest.lock, as text. */
  async manifest(id: string): Promise<string> {
    return (await this.request('GET', `/artifact/${encodeURIComponent(id)}/manifest.lock`)).text();
  }

  /** Widens the bundle's visibility (owner only); a demotion is refused (409). */
  async promote(id: string, target: string): Promise<{ id: string; visibility: string }> {
    const res = await this.request('POST', `/artifact/${encodeURIComponent(id)}/promote`, { body: JSON.stringify({ target }), headers: { 'Content-Type': 'application/json' } });
    return (await res.json()) as { id: string; visibility: string };
  }

  /** Deletes the bundle (owner only). */
  async remove(id: string): Promise<{ deleted: string }> {
    return (await (await this.request('DELETE', `/artifact/${encodeURIComponent(id)}`)).json()) as { deleted: string };
  }

  private async request(method: string, path: string, opts: { body?: string | Blob; headers?: Record<string, string>; allow404?: boolean } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, { method, headers, body: opts.body });
    } catch (err) {
      throw new RegistryError(0, `cannot reach the registry at ${this.url}: ${(err as Error).message}`, 'is svc registry serve running there?');
    }
    if (res.ok || (opts.allow404 && res.status === 404)) return res;
    let message = `${res.status} ${res.statusText}`;
    if (method !== 'HEAD') {
      const text = await res.text().catch(() => '');
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        if (text) message = text.split('\n')[0] ?? message;
      }
    }
    throw new RegistryError(res.status, `registry ${method} ${path.split('?')[0]}: ${message}`, undefined, message);
  }
}

function info(res: Response): BundleInfo {
  const sha256 = res.headers.get('x-svc-sha256') ?? '';
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new RegistryError(502, 'the registry answered without a valid X-Svc-Sha256 header');
  return { sha256, size: Number(res.headers.get('content-length') ?? 0), visibility: res.headers.get('x-svc-visibility') ?? '' };
}
