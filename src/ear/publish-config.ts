import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { writeFileAtomic } from '../core/atomic.ts';
import { parseYamlFile } from '../core/config/yaml.ts';
import { InputError } from '../core/errors.ts';
import { keyPath } from '../core/key-path.ts';
import { Publish } from '../schema/publish.ts';
import type { ManifestPublish } from './manifest.ts';

export const PUBLISH_FILE = 'publish.yaml';
export const DEFAULT_MAX_FILE_MB = 100;

/** `<checkpoint>/ear/publish.yaml`. */
export const publishYamlPath = (checkpointDir: string) => join(checkpointDir, 'ear', PUBLISH_FILE);

/** The publish configuration of a checkpoint, or null when it has none (no file, or an empty one). */
export function loadPublishConfig(checkpointDir: string): Publish | null {
  const file = publishYamlPath(checkpointDir);
  if (!existsSync(file)) return null;
  if (statSync(file).isDirectory()) throw new InputError(`${file} is a directory, not a publish configuration`);
  return parsePublishYaml(readFileSync(file, 'utf8'), file);
}

/** Parse and check publish.yaml text; null for an empty document. Every failure is one InputError naming the file and key. */
export function parsePublishYaml(text: string, file: string): Publish | null {
  const raw = parseYamlFile(text, file);
  if (raw === null || raw === undefined) return null;
  return checkPublish(raw, file);
}

export function checkPublish(raw: unknown, file: string): Publish {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) invalid(file, '', 'must be a mapping of keys');
  const known = new Set(Object.keys(Publish.properties));
  for (const k of Object.keys(raw as object)) {
    if (!known.has(k)) invalid(file, k, `unknown key (keys: ${[...known].join(', ')})`);
  }
  const first = Value.Errors(Publish, raw).First();
  if (first) {
    const got = first.value === undefined ? 'nothing' : JSON.stringify(first.value);
    const key = keyPath(first.path);
    const field = key.replace(/\[\d+\]$/, '') as keyof typeof Publish.properties;
    const desc = (Publish.properties[field] as { description?: string } | undefined)?.description;
    invalid(file, key, `${first.message.toLowerCase()} (got ${got})${desc ? `; ${desc}` : ''}`);
  }
  const p = raw as Publish;
  for (const key of ['include', 'exclude'] as const) {
    (p[key] ?? []).forEach((g, i) => {
      if (g.startsWith('/') || g.split('/').includes('..')) invalid(file, `${key}[${i}]`, `'${g}' must be a glob relative to ear/, without '..'`);
    });
  }
  const date = p.visibility?.startsWith('embargoed-until:') ? p.visibility.slice('embargoed-until:'.length) : null;
  if (date !== null && !isRealDate(date)) invalid(file, 'visibility', `'${date}' is not a calendar date (YYYY-MM-DD)`);
  return p;
}

function isRealDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function invalid(file: string, key: string, why: string): never {
  throw new InputError(`${file}: ${key ? `${key}: ` : ''}${why}`, 'fix the publish configuration');
}

/** The settings manifest.lock records, with defaults filled in. */
export function manifestPublish(p: Publish): ManifestPublish {
  return {
    visibility: p.visibility ?? 'staged',
    required: p.required ?? false,
    auto_promote: p.auto_promote ?? false,
    max_file_mb: p.max_file_mb ?? DEFAULT_MAX_FILE_MB,
    license: p.license ?? null,
    backend: p.backend ?? 'svc-registry',
  };
}

/** What the dashboard offers when a run has no publish.yaml yet. */
export const DEFAULT_PUBLISH_YAML = `# Publish configuration of this run's artifact bundle (see schemas/publish.schema.json)
include:
  - "**/*"
exclude: []
max_file_mb: ${DEFAULT_MAX_FILE_MB}
visibility: staged
required: false
auto_promote: false
backend: svc-registry
`;

/** The publish configuration as the dashboard shows it: the file's text, or the default when there is none. */
export function publishYamlView(checkpointDir: string): { exists: boolean; yaml: string; config: Publish | null; error: string | null } {
  const file = publishYamlPath(checkpointDir);
  if (!existsSync(file)) return { exists: false, yaml: DEFAULT_PUBLISH_YAML, config: parsePublishYaml(DEFAULT_PUBLISH_YAML, file), error: null };
  const yaml = readFileSync(file, 'utf8');
  try {
    return { exists: true, yaml, config: parsePublishYaml(yaml, file), error: null };
  } catch (err) {
    return { exists: true, yaml, config: null, error: (err as Error).message };
  }
}

/** Check publish.yaml text and write it to `<checkpoint>/ear/publish.yaml` atomically; bad text writes nothing. */
export function savePublishYaml(checkpointDir: string, text: string): Publish {
  const file = publishYamlPath(checkpointDir);
  const config = parsePublishYaml(text, PUBLISH_FILE);
  if (config === null) throw new InputError(`${PUBLISH_FILE}: is empty`, 'give at least include');
  writeFileAtomic(file, text.endsWith('\n') ? text : `${text}\n`);
  return config;
}
