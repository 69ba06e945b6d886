import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { InputError, NotFoundError, oneLine } from '../core/errors.ts';
import { BUNDLED_PROMPTS } from './bundled.ts';

/**
 * A prompt template by bundled name (`orchestrator/bfts_select`) or by file path (relative to
 * `baseDir`). A template that names no bundled prompt and no readable file fails at once, before
 * any work, as does one missing a placeholder its caller fills in.
 */
export function promptTemplate(nameOrPath: string, opts: { baseDir: string; placeholders?: readonly string[]; setting?: string }): string {
  const what = opts.setting ? `${opts.setting} '${nameOrPath}'` : `prompt template '${nameOrPath}'`;
  const text = (Object.hasOwn(BUNDLED_PROMPTS, nameOrPath) ? BUNDLED_PROMPTS[nameOrPath] : undefined) ?? readTemplateFile(nameOrPath, opts.baseDir, what);
  const missing = (opts.placeholders ?? []).filter((p) => !text.includes(`{${p}}`));
  if (missing.length) {
    throw new InputError(`${what} lacks the placeholder${missing.length > 1 ? 's' : ''} ${missing.map((p) => `{${p}}`).join(', ')}`, 'add them to the template');
  }
  return text;
}

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills `{name}` placeholders; `{{` and `}}` stand for literal braces. A placeholder with no value
 * is left as it is (or what `missing` makes of it), so a user's template can show braces of its own.
 */
export function fillPrompt(template: string, values: Readonly<Record<string, string | number>>, missing = (placeholder: string, _name: string) => placeholder): string {
  return template.replace(PLACEHOLDER, (m, name: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const value = name !== undefined && Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? missing(m, name as string) : String(value);
  });
}

/**
 * fillPrompt for a template svc ships: a placeholder without a value is a bug in the caller, so it
 * throws rather than sending a prompt with a hole in it. `what` names the template in the error.
 */
export function fillOwnPrompt(template: string, values: Readonly<Record<string, string | number>>, what = 'prompt template'): string {
  return fillPrompt(template, values, (_, name) => {
    throw new Error(`${what}: no value for {${name}}`);
  });
}

function readTemplateFile(path: string, baseDir: string, what: string): string {
  const file = isAbsolute(path) ? path : resolve(baseDir, path);
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotFoundError(`${what} is neither a bundled prompt nor a file (looked for ${file})`, `use a bundled name (${Object.keys(BUNDLED_PROMPTS).filter((n) => n.startsWith('orchestrator/')).join(', ') || 'none'}) or an existing file`);
    throw new InputError(`${what} cannot be read: ${oneLine(err)}`);
  }
}
