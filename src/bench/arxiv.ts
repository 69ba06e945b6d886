import { type Env, envValue } from '../core/config/env-vars.ts';
import { NotFoundError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';
import { atomAuthors, atomEntries, atomLinks } from '../ideas/atom.ts';
import { fetchText, ProviderFailure } from '../ideas/provider-fetch.ts';
import type { PreprintMetadata } from '../schema/bench-api.ts';
import { normalizeArxivId } from './arxiv-id.ts';
import { ARXIV_LICENSE, classifyLicense } from './license.ts';

/** Long enough for arXiv on a slow day; the dashboard's caller waits on it. */
const ARXIV_TIMEOUT_MS = 30_000;

/** The arXiv host svc asks (export API and PDFs): SVC_ARXIV_API_BASE, without a trailing slash. */
export function arxivBase(env: Env): string {
  return (envValue(env, 'SVC_ARXIV_API_BASE') ?? 'http://export.arxiv.org').replace(/\/+$/, '');
}

/**
 * A preprint's metadata from the arXiv export API (its Atom feed). A malformed id is refused
 * before any request; an id arXiv does not know is a NotFoundError; arXiv unreachable is an
 * UnavailableError and an answer that is no feed an UpstreamAnswerError, each naming the URL.
 */
export async function fetchPreprintMetadata(rawId: string, env: Env, signal?: AbortSignal): Promise<PreprintMetadata> {
  const id = normalizeArxivId(rawId);
  const url = `${arxivBase(env)}/api/query?id_list=${encodeURIComponent(id)}`;
  let xml: string;
  try {
    xml = await fetchText(url, { deadline: Date.now() + ARXIV_TIMEOUT_MS, signal, maxRetries: 1, headers: { accept: 'application/atom+xml' } });
  } catch (err) {
    if (!(err instanceof ProviderFailure)) throw err;
    if (err.kind === 'offline') throw new UnavailableError(`arXiv at ${url} is not reachable: ${err.message}`, 'check the network, or SVC_ARXIV_API_BASE');
    throw new UpstreamAnswerError(`arXiv at ${url} failed: ${err.message}`, 'try again later');
  }
  return preprintOf(id, xml, url);
}

/** The feed's one entry as preprint metadata; a feed without it, or with arXiv's error entry, is not found. */
export function preprintOf(id: string, xml: string, url: string): PreprintMetadata {
  if (!/<feed\b/.test(xml)) throw new UpstreamAnswerError(`arXiv at ${url} answered something that is not an Atom feed`, 'check SVC_ARXIV_API_BASE');
  const entry = atomEntries(xml)[0];
  const entryId = entry?.id ?? '';
  // arXiv answers an unknown id with no entry, or with one that has an id but no title
  if (!entry || entryId.includes('/api/errors') || !entry.title) {
    throw new NotFoundError(`arXiv does not know ${id}${entryId.includes('/api/errors') && entry?.summary ? `: ${entry.summary}` : ''}`, 'check the id on arxiv.org');
  }
  const year = /^(\d{4})-/.exec(entry.published ?? '')?.[1];
  const links = atomLinks(xml)[0] ?? [];
  const abs = links.find((l) => l.rel === 'alternate')?.href ?? `https://arxiv.org/abs/${id}`;
  const pdf = links.find((l) => l.title === 'pdf')?.href ?? `https://arxiv.org/pdf/${id}`;
  return {
    arxiv_id: id,
    title: entry.title,
    authors: atomAuthors(xml)[0] ?? [],
    year: year ? Number(year) : null,
    license: ARXIV_LICENSE,
    license_assessment: classifyLicense(ARXIV_LICENSE),
    pdf_url: pdf,
    abs_url: abs,
  };
}
