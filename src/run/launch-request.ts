import { InputError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import { BACKENDS } from '../llm/route.ts';
import { PROFILE_NAMES, type ProfileName } from '../core/config/profiles.ts';

/** The body of POST /api/launch, checked. Absent choices stay absent: the configuration decides them. */
export type LaunchRequest = {
  experiment_md: string;
  profile?: ProfileName;
  provider?: string;
  model?: string;
  max_nodes?: number;
  max_depth?: number;
  workers?: number;
};

export const LAUNCH_FIELDS = ['experiment_md', 'profile', 'provider', 'model', 'max_nodes', 'max_depth', 'workers'] as const;

/** Provider names the model layer accepts besides its canonical backends. */
const PROVIDER_ALIASES = ['openai', 'anthropic', 'ollama', 'vllm'];
/** Large enough for any real run; a larger number is a typo, and would only be cut by the run. */
const MAX_COUNT = 100_000;
/** A model or provider id longer than this is no id. */
const MAX_ID = 256;

/**
 * Checks a launch body. Every bad field is named in one message, so a client fixes them all at once:
 * a missing or empty experiment_md, a wrong type or value, and any field the endpoint does not know.
 */
export function parseLaunchRequest(body: unknown): LaunchRequest {
  return parseRunRequest(body, { fields: LAUNCH_FIELDS, experimentRequired: true, what: 'launch request' }).request as LaunchRequest;
}

/**
 * The launch fields of a body that may carry others (`fields` lists every field it may carry);
 * the other fields are returned as given, for the caller to check, and its problems are added to
 * the one message.
 */
export function parseRunRequest(
  body: unknown,
  opts: { fields: readonly string[]; experimentRequired: boolean; what: string; check?: (body: Record<string, unknown>, problems: string[]) => void },
): { request: Partial<LaunchRequest>; body: Record<string, unknown> } {
  if (!isMapping(body)) throw new InputError(`the ${opts.what} must be a JSON object`, `fields: ${opts.fields.join(', ')}`);
  const problems: string[] = [];
  const out: Partial<LaunchRequest> = {};
  for (const key of Object.keys(body)) {
    if (!opts.fields.includes(key)) problems.push(`unknown field '${key}'`);
  }
  const md = body.experiment_md;
  if (md === undefined && !opts.experimentRequired) {
    // the caller supplies the text
  } else if (typeof md !== 'string' || md.trim() === '') problems.push(`experiment_md ${opts.experimentRequired ? 'is required: ' : 'must be '}a non-empty Markdown string${md === undefined ? '' : `, got ${describe(md)}`}`);
  else if (md.includes('\0')) problems.push('experiment_md contains a NUL byte');
  else out.experiment_md = md;

  if (body.profile !== undefined) {
    if (typeof body.profile === 'string' && (PROFILE_NAMES as string[]).includes(body.profile)) out.profile = body.profile as ProfileName;
    else problems.push(`profile must be one of ${PROFILE_NAMES.join(', ')}, got ${describe(body.profile)}`);
  }
  if (body.provider !== undefined) {
    const p = typeof body.provider === 'string' ? body.provider.trim().toLowerCase() : null;
    if (p !== null && ([...BACKENDS, ...PROVIDER_ALIASES] as string[]).includes(p)) out.provider = p;
    else problems.push(`provider must be one of ${[...BACKENDS, ...PROVIDER_ALIASES].join(', ')}, got ${describe(body.provider)}`);
  }
  if (body.model !== undefined) {
    const m = body.model;
    if (typeof m === 'string' && m.trim() !== '' && m.length <= MAX_ID && !/[\0-\x1f]/.test(m)) out.model = m.trim();
    else problems.push(`model must be a non-empty model id of at most ${MAX_ID} characters on one line, got ${describe(m)}`);
  }
  for (const key of ['max_nodes', 'max_depth', 'workers'] as const) {
    const v = body[key];
    if (v === undefined) continue;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_COUNT) out[key] = v;
    else problems.push(`${key} must be a positive integer (at most ${MAX_COUNT}), got ${describe(v)}`);
  }
  opts.check?.(body, problems);
  if (problems.length > 0) throw new InputError(`invalid ${opts.what}: ${problems.join('; ')}`, `fields: ${opts.fields.join(', ')}${opts.experimentRequired ? '; only experiment_md is required' : ''}`);
  return { request: out, body };
}

export function describe(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : `'${v}'`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return String(v);
}
