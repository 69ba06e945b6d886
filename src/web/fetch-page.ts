import { readCappedBytes } from '../core/outbound.ts';
import { InputError, TooLargeError } from '../core/errors.ts';
import { isIP } from 'node:net';
import { type AccessPolicy, checkedAddress, type HostLookup, UnreachableError } from './access-policy.ts';

export type FetchedPage = {
  /** where the page was found, after redirects */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  redirects: string[];
};

export type FetchPageOptions = { policy: AccessPolicy; maxBytes: number; timeoutMs: number; signal?: AbortSignal; lookupHost?: HostLookup };

export const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * GET of a page, following redirects by hand so that each hop is checked against the policy
 * before anything is sent to it (fetch would follow a redirect to 127.0.0.1 unasked). Every hop,
 * http or https, connects to the very address that was checked, with the Host header of the URL
 * (and over https the name as TLS server name, so SNI and the certificate check are the name's),
 * so a name cannot resolve to a public address for the check and to a private one for the
 * connection.
 * The body is read up to `maxBytes`; more is refused.
 */
export async function fetchPage(start: URL, opts: FetchPageOptions): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const redirects: string[] = [];
  let url = start;
  for (let hop = 0; ; hop++) {
    const { address, family } = await checkedAddress(url, opts.policy, opts.lookupHost);
    const { target, serverName } = pinned(url, address, family);
    let res: Response;
    try {
      res = await fetch(target, {
        redirect: 'manual',
        signal,
        headers: { host: url.host, 'user-agent': 'svc-web-skill', accept: 'text/html,application/xhtml+xml,text/plain,application/pdf;q=0.9,*/*;q=0.5' },
        ...(serverName ? { tls: { serverName } } : {}),
      });
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw new UnreachableError(timeout.aborted ? `no answer from ${url.host} within ${opts.timeoutMs / 1000} s` : `${url.host} is not reachable (${(err as Error).message.split('\n')[0]})`);
    }
    if (REDIRECT.has(res.status) && res.headers.has('location')) {
      await res.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS) throw new InputError(`${start.href} redirects more than ${MAX_REDIRECTS} times`, 'give the address the redirects end at');
      const next = new URL(res.headers.get('location') as string, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new InputError(`${url.href} redirects to ${next.protocol} ${next.href.slice(0, 200)}, which fetch_url does not fetch`);
      redirects.push(next.href);
      url = next;
      continue;
    }
    let body: Uint8Array;
    try {
      body = await readCappedBytes(res, opts.maxBytes, () => new TooLargeError(`${url.href} sent more than ${opts.maxBytes / 1024 / 1024} MB`, 'fetch a smaller page'));
    } catch (err) {
      if (err instanceof TooLargeError) throw err;
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw new UnreachableError(timeout.aborted ? `${url.host} did not send the whole page within ${opts.timeoutMs / 1000} s` : `${url.host} broke off the page (${(err as Error).message.split('\n')[0]})`);
    }
    return { url: url.href, status: res.status, contentType: res.headers.get('content-type') ?? '', body, redirects };
  }
}

/**
 * The URL to connect to for `url`: its host replaced by the checked address, so no second lookup
 * happens. Over https a name is still the TLS server name (SNI, and what the certificate must
 * name); an address literal has none.
 */
export function pinned(url: URL, address: string, family: 4 | 6): { target: URL; serverName: string | null } {
  const target = new URL(url.href);
  target.hostname = family === 6 ? `[${address}]` : address;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { target, serverName: url.protocol === 'https:' && isIP(host) === 0 ? host : null };
}
