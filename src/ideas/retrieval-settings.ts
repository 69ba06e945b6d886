import { dirname, isAbsolute, resolve } from 'node:path';
import { effective } from '../core/config/config.ts';
import type { Config } from '../core/config/config.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { BUNDLED } from '../core/config/workflow.ts';
import { InputError } from '../core/errors.ts';
import { SCHOLAR_A_DEFAULT_URL } from './scholar-a.ts';
import { SCHOLAR_B_DEFAULT_URL } from './scholar-b.ts';

/** The variables a skill that searches the literature is given. */
export const RETRIEVAL_ENV = ['SVC_RETRIEVAL_BACKEND', 'SVC_SCHOLAR_A_URL', 'SVC_SCHOLAR_A_API_KEY', 'SVC_SCHOLAR_B_URL', 'SVC_RETRIEVAL_TIMEOUT_S'] as const;

/** Where and how the survey searches. */
export type RetrievalSettings = {
  backend: 'scholar_a' | 'scholar_b' | 'both';
  scholarAUrl: string;
  scholarAKey: string | null;
  scholarBUrl: string;
  /** seconds the whole survey may take per backend, rate-limit waits included */
  timeoutS: number;
  /** the researcher's BibTeX library (retrieval.library, relative to the workflow file), or null */
  library: string | null;
};

export const DEFAULT_RETRIEVAL_TIMEOUT_S = 30;

/**
 * The retrieval settings of a skill process: `retrieval.backend` of the workflow (SVC_RETRIEVAL_BACKEND
 * and saved settings win, as for every setting), `retrieval.endpoint` as the second provider's
 * base URL, and the variables that point a provider elsewhere (a mirror, a test server).
 */
export function retrievalSettings(cfg: Config, env: Env): RetrievalSettings {
  // effective() has refused a value outside the setting's choices
  const backend = String(effective(cfg, 'retrieval_backend').value ?? 'scholar_a') as RetrievalSettings['backend'];
  const endpoint = cfg.workflow.workflow.retrieval.endpoint.trim();
  const timeoutRaw = envValue(env, 'SVC_RETRIEVAL_TIMEOUT_S');
  const timeoutS = timeoutRaw === null ? DEFAULT_RETRIEVAL_TIMEOUT_S : Number(timeoutRaw);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new InputError(`SVC_RETRIEVAL_TIMEOUT_S must be a positive number of seconds, got '${timeoutRaw}'`, 'set it to, say, 30');
  return {
    backend,
    scholarAUrl: url(env, 'SVC_SCHOLAR_A_URL', SCHOLAR_A_DEFAULT_URL),
    scholarAKey: envValue(env, 'SVC_SCHOLAR_A_API_KEY'),
    scholarBUrl: url(env, 'SVC_SCHOLAR_B_URL', endpoint || SCHOLAR_B_DEFAULT_URL),
    timeoutS,
    library: libraryPath(cfg),
  };
}

/** The file retrieval.library names, relative to the workflow file; null when it names none. */
export function libraryPath(cfg: Config): string | null {
  const value = cfg.workflow.workflow.retrieval.library.trim();
  if (value === '') return null;
  return isAbsolute(value) || cfg.workflow.path === BUNDLED ? value : resolve(dirname(cfg.workflow.path), value);
}

function url(env: Env, name: string, fallback: string): string {
  const value = envValue(env, name) ?? fallback;
  if (!/^https?:\/\/[^/\s]+/.test(value)) throw new InputError(`${name === 'SVC_SCHOLAR_B_URL' && !envValue(env, name) ? 'retrieval.endpoint' : name} must be an http(s) URL, got '${value}'`, 'give the provider base URL, e.g. https://export.arxiv.org');
  return value;
}
