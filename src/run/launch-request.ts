import type { TObject } from '@sinclair/typebox';
import { InputError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import { BACKENDS } from '../llm/route.ts';
import { fieldProblems } from '../schema/check.ts';
import { DashboardLaunchBody } from '../schema/launch.ts';

/** The body of POST /api/launch, checked. Absent choices stay absent: the configuration decides them. */
export type LaunchRequest = DashboardLaunchBody;

/** Provider names the model layer accepts besides its canonical backends. */
const PROVIDER_ALIASES = ['openai', 'anthropic', 'ollama', 'vllm'];
const PROVIDERS: readonly string[] = [...BACKENDS, ...PROVIDER_ALIASES];

/**
 * Checks a launch body (DashboardLaunchBody in src/schema/launch.ts). Every bad field is named in one message, so a client
 * fixes them all at once: a missing or empty experiment_md, a wrong type or value, and any field
 * the endpoint does not know.
 */
export function parseLaunchRequest(body: unknown): LaunchRequest {
  return parseRunRequest(DashboardLaunchBody, body, 'launch request') as LaunchRequest;
}

/** A run request against its schema: provider and model read as the model layer names them (trimmed, the provider in lower case). */
export function parseRunRequest(schema: TObject, body: unknown, what: string): Record<string, unknown> {
  const fields = Object.keys(schema.properties).join(', ');
  const hint = `fields: ${fields}${(schema.required ?? []).length > 0 ? `; only ${schema.required?.join(', ')} is required` : ''}`;
  if (!isMapping(body)) throw new InputError(`the ${what} must be a JSON object`, `fields: ${fields}`);
  const read: Record<string, unknown> = { ...body };
  if (typeof read.provider === 'string') read.provider = read.provider.trim().toLowerCase();
  if (typeof read.model === 'string') read.model = read.model.trim() === '' ? read.model : read.model.trim();
  const problems = fieldProblems(schema, read);
  if (typeof read.provider === 'string' && read.provider !== '' && !problems.some((p) => p.startsWith('provider ')) && !PROVIDERS.includes(read.provider)) {
    problems.push(`provider must be one of ${PROVIDERS.join(', ')}, got '${String(body.provider)}'`);
  }
  if (problems.length > 0) throw new InputError(`invalid ${what}: ${problems.join('; ')}`, hint);
  return read;
}
