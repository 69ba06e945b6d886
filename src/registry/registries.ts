import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { Env } from '../core/config/env-vars.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { log } from '../core/log.ts';

/** One registry a client may talk to; token null when the entry names none (or its variable is unset). */
export type RegistryEntry = { name: string; url: string; token: string | null };

export type RegistriesOptions = {
  checkpointDir?: string;
  cwd?: string;
  /** the home directory (default $HOME, else the OS's) */
  home?: string;
  /** where the deprecation warning goes (default stderr) */
  warn?: (line: string) => void;
};

const REL = join('.svc', 'registries.yaml');

/**
 * The registries file the client uses: SVC_REGISTRIES_FILE, then $SVC_CHECKPOINT_DIR/.svc/registries.yaml
 * (or the given checkpoint's), then ./.svc/registries.yaml; the first that exists wins. The
 * home-directory file ~/.svc/registries.yaml is read last and warns: it is deprecated.
 */
export function registriesFile(env: Env, opts: RegistriesOptions = {}): { path: string; deprecated: boolean } | null {
  const explicit = env.SVC_REGISTRIES_FILE;
  if (explicit !== undefined && explicit !== '') {
    if (!existsSync(explicit)) throw new InvalidRecordError(`registries file ${explicit} (SVC_REGISTRIES_FILE) does not exist`, 'create it or unset SVC_REGISTRIES_FILE');
    return { path: explicit, deprecated: false };
  }
  const ckpt = opts.checkpointDir ?? (env.SVC_CHECKPOINT_DIR || undefined);
  const candidates = [ckpt === undefined ? null : join(ckpt, REL), join(resolve(opts.cwd ?? process.cwd()), REL)];
  for (const c of candidates) if (c !== null && existsSync(c)) return { path: c, deprecated: false };
  const home = opts.home ?? (env.HOME || homedir());
  const old = join(home, REL);
  if (existsSync(old)) return { path: old, deprecated: true };
  return null;
}

/** The registries of the registries file (see registriesFile), in file order; [] when there is none. */
export function loadRegistries(env: Env, opts: RegistriesOptions = {}): RegistryEntry[] {
  const found = registriesFile(env, opts);
  if (found === null) return [];
  if (found.deprecated) {
    const warn = opts.warn ?? ((l: string) => log.warn(l));
    warn(`reading registries from ${found.path}: the home-directory registries file is deprecated; move it to ./.svc/registries.yaml or point SVC_REGISTRIES_FILE at it`);
  }
  return parseRegistries(readFileSync(found.path, 'utf8'), found.path, env);
}

/** Parses `registries: [{name, url, token}]`; a token `$VAR` or `${VAR}` is read from the environment. */
export function parseRegistries(text: string, path: string, env: Env): RegistryEntry[] {
  const bad = (why: string) => new InvalidRecordError(`registries file ${path} is malformed: ${why}`, 'expected registries: [{name, url, token}]');
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw bad(`not YAML (${(err as Error).message.split('\n')[0]})`);
  }
  if (doc === null || doc === undefined) return [];
  if (typeof doc !== 'object' || Array.isArray(doc)) throw bad('the top level is not a mapping');
  const list = (doc as Record<string, unknown>).registries;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw bad('registries is not a list');
  const names = new Set<string>();
  return list.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw bad(`entry ${i + 1} is not a mapping`);
    const { name, url, token } = item as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') throw bad(`entry ${i + 1} has no name`);
    if (names.has(name)) throw bad(`the name ${name} appears twice`);
    names.add(name);
    if (typeof url !== 'string' || !/^https?:\/\/[^/]/.test(url)) throw bad(`entry ${name} has no http(s) url`);
    if (token !== undefined && token !== null && typeof token !== 'string') throw bad(`entry ${name}: token is not a string`);
    return { name, url: url.replace(/\/+$/, ''), token: tokenValue(typeof token === 'string' ? token : null, env) };
  });
}

function tokenValue(raw: string | null, env: Env): string | null {
  if (raw === null || raw === '') return null;
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(raw);
  if (!m) return raw;
  const v = env[(m[1] ?? m[2]) as string];
  return v === undefined || v === '' ? null : v;
}
