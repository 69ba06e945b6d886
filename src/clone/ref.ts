import { InputError } from '../core/errors.ts';

/** A parsed clone reference: one of the spec's five schemes. */
export type CloneRef =
  | { scheme: 'file'; path: string }
  | { scheme: 'https'; url: string }
  | { scheme: 'svc'; registry: string | null; id: string }
  | { scheme: 'hosting-release'; owner: string; repo: string }
  | { scheme: 'doi'; doi: string; record: string };

const ID = /^[0-9a-f]{16}$/;
const GH_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function parseRef(ref: string): CloneRef {
  const bad = (why: string) => new InputError(`clone reference ${JSON.stringify(ref)}: ${why}`, 'use file://<path>, https://<url>, svc://<id>, hosting-release:<owner>/<repo> or doi:<doi>');
  if (ref.startsWith('file://')) {
    const path = ref.slice('file://'.length);
    if (path === '') throw bad('no path');
    return { scheme: 'file', path };
  }
  if (ref.startsWith('https://') || ref.startsWith('http://')) {
    const u = URL.parse(ref);
    if (u === null) throw bad('not a URL');
    // plain http only to this machine (test servers); anything remote must be https
    if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) throw bad('http:// is only allowed to a loopback address; use https://');
    return { scheme: 'https', url: u.href };
  }
  if (ref.startsWith('svc://')) {
    const rest = ref.slice('svc://'.length).split('/');
    const [a, b] = rest;
    if (rest.length === 1 && a !== undefined && ID.test(a)) return { scheme: 'svc', registry: null, id: a };
    if (rest.length === 2 && a && b !== undefined && ID.test(b)) return { scheme: 'svc', registry: a, id: b };
    throw bad('expected svc://<id> or svc://<registry>/<id> with a 16-hex id');
  }
  if (ref.startsWith('hosting-release:')) {
    const [owner, repo, ...more] = ref.slice('hosting-release:'.length).split('/');
    if (more.length > 0 || !owner || !repo || !GH_NAME.test(owner) || !GH_NAME.test(repo) || /^\.+$/.test(owner) || /^\.+$/.test(repo)) throw bad('expected hosting-release:<owner>/<repo>');
    return { scheme: 'hosting-release', owner, repo };
  }
  if (ref.startsWith('doi:')) {
    const doi = ref.slice('doi:'.length);
    const m = /^10\.5281\/zenodo\.(\d{1,20})$/.exec(doi) ?? /^zenodo\/(\d{1,20})$/.exec(doi);
    if (!m) throw bad('only Zenodo DOIs (10.5281/zenodo.<n>) can be cloned');
    return { scheme: 'doi', doi, record: m[1] as string };
  }
  throw bad('unknown scheme');
}

/** A directory name for a clone when none is given. */
export function defaultDest(ref: CloneRef): string {
  switch (ref.scheme) {
    case 'file': {
      const base = ref.path.replace(/\/+$/, '').split('/').pop() ?? 'bundle';
      return base.replace(/\.(tar\.gz|tgz)$/, '') || 'bundle';
    }
    case 'https': {
      const base = new URL(ref.url).pathname.split('/').filter(Boolean).pop() ?? 'bundle';
      return base.replace(/\.(tar\.gz|tgz)$/, '') || 'bundle';
    }
    case 'svc':
      return `bundle-${ref.id}`;
    case 'hosting-release':
      return ref.repo;
    case 'doi':
      return `zenodo-${ref.record}`;
  }
}
