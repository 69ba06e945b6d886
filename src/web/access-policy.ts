import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type Config, effective } from '../core/config/config.ts';
import { InputError, SvcError } from '../core/errors.ts';
import { nonPublicRange } from './ip-ranges.ts';

/**
 * Where fetch_url may go besides the public internet: every private address, or listed hosts
 * (`name`, `address`, or either with `:port` for that port only; IPv6 addresses in brackets).
 */
export type AccessPolicy = { allowPrivate: boolean; allowHosts: readonly string[] };

/** The policy of a skill process: web.allow_private and web.allow_hosts, the variables winning. */
export function accessPolicy(cfg: Config): AccessPolicy {
  const hosts = String(effective(cfg, 'web_allow_hosts').value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return { allowPrivate: effective(cfg, 'web_allow_private').value === true, allowHosts: hosts };
}

/** A destination refused by the policy: an error the model sees, naming the switch a user would turn. */
export class PrivateAddressError extends SvcError {
  constructor(message: string) {
    super(message, 'fetch_url reaches only the public internet; to let it reach this host, list it in web.allow_hosts or SVC_WEB_ALLOW_HOSTS, or set web.allow_private or SVC_WEB_ALLOW_PRIVATE=1');
    this.name = 'PrivateAddressError';
  }
}

/** A host that cannot be reached (no address, no answer in time, a refused connection): no page, and why. */
export class UnreachableError extends Error {}

/**
 * The address to connect to for `url`, after checking every address its host resolves to: a
 * name with one private address among public ones is refused too, as the connection could take
 * either. A host the policy lists is let through whatever it resolves to.
 */
export async function checkedAddress(url: URL, policy: AccessPolicy, lookupHost: HostLookup = lookupAll): Promise<Address> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const [first, ...rest] = literal ? [{ address: host, family: literal === 6 ? 6 : 4 } as const] : await resolve(host, lookupHost);
  if (policy.allowPrivate || allowed(url, policy.allowHosts)) return first;
  for (const a of [first, ...rest]) {
    const range = nonPublicRange(a.address);
    if (range) throw new PrivateAddressError(`fetch_url refuses ${url.host}: ${literal ? 'it is' : `it resolves to ${a.address},`} a ${range} address`);
  }
  return first;
}

export type Address = { address: string; family: 4 | 6 };
/** Every address a name resolves to (the system resolver's, unless a test gives its own). */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/** Every address of a name, at least one. */
async function resolve(host: string, lookupHost: HostLookup): Promise<[Address, ...Address[]]> {
  try {
    const found = await lookupHost(host);
    const [first, ...rest] = found.map((f): Address => ({ address: f.address, family: f.family === 6 ? 6 : 4 }));
    if (!first) throw new UnreachableError(`${host} has no address`);
    return [first, ...rest];
  } catch (err) {
    if (err instanceof UnreachableError) throw err;
    throw new UnreachableError(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function allowed(url: URL, hosts: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.toLowerCase();
  return hosts.includes(host) || hosts.includes(`${host}:${port}`);
}

/** An http(s) URL from a tool argument, or an InputError saying what is wrong with it. */
export function webUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InputError(`'${raw.slice(0, 200)}' is not a URL`, 'give an absolute http:// or https:// address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InputError(`fetch_url fetches http and https only, not ${url.protocol.replace(/:$/, '')}`, 'give an http:// or https:// address');
  if (url.username || url.password) throw new InputError('fetch_url does not send credentials in a URL', 'give the address without user:password@');
  return url;
}
