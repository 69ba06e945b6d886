import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { type Config, effective } from '../core/config/config.ts';
import { readRecord } from '../core/checkpoint/records.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { LaunchConfig } from '../schema/checkpoint.ts';
import { VIR_SCI_FIELDS } from '../schema/ma-limits.ts';
import { onOff } from '../core/config/settings.ts';
import { mergedEnv } from '../core/config/environment.ts';
import type { Workflow } from '../schema/workflow.ts';

export const LAUNCH_CONFIG_FILE = 'launch_config.json';

/** Who started the run; kept in the record so the dashboard can tell its launches from others. */
export type Launcher = 'dashboard' | 'orchestrator' | 'sub-experiment';

/**
 * The launch snapshot (survey 2.3 keys): the values the run will see, resolved from the same
 * configuration and environment the child gets. It holds choices, never a key or a token.
 */
export function buildLaunchConfig(cfg: Config, profile: string | null, launcher: Launcher, now = new Date()): LaunchConfig {
  const value = (key: string) => effective(cfg, key).value;
  const wf: Workflow = cfg.workflow.workflow;
  const executor = String(value('executor') ?? 'local');
  const record: Record<string, unknown> = {
    llm_model: String(value('model') ?? ''),
    llm_provider: String(value('backend') ?? ''),
    profile,
    max_nodes: value('max_nodes'),
    max_depth: value('max_depth'),
    max_react: value('max_react'),
    timeout_node_s: value('timeout_node'),
    parallel: value('parallel'),
    frontier_score: value('frontier_score'),
    composite: wf.evaluator.composite,
    axis_mode: wf.evaluator.axis_mode,
    allow_web: wf.skills.some((s) => s.name === 'web-skill' && [s.phase].flat().includes('bfts')),
    executor,
    partition: value('partition') ?? null,
    retrieval_backend: value('retrieval_backend'),
    include_ear: stageEnabled(wf, /ear/),
    include_review: stageEnabled(wf, /review/),
    include_reproduce: stageEnabled(wf, /^ors_|reproduce/),
    launched_by: launcher,
    launched_at: now.toISOString(),
  };
  // the multi-agent idea engine's choices, under the reference's names, where the run is given them (its .env files too)
  const env = mergedEnv(cfg.env, cfg.dotenv);
  for (const [key, name] of VIR_SCI_FIELDS) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    if (key === 'vir_sci_real') record[key] = onOff(raw) ?? raw;
    else record[key] = /^\d+$/.test(raw) ? Number(raw) : raw;
  }
  const baseUrl = value('base_url');
  if (typeof baseUrl === 'string' && baseUrl !== '') record.llm_base_url = publicUrl(baseUrl);
  if (executor !== 'local') {
    record.hpc_cpus = value('cpus') ?? null;
    record.hpc_memory_gb = value('mem_gb') ?? null;
    record.hpc_gpus = value('gpus') ?? null;
    record.hpc_walltime = value('walltime') ?? null;
  }
  return record as LaunchConfig;
}

/**
 * A URL as the record may show it: without a user, password, query or fragment, where some
 * servers take their key. A text that is no URL cannot carry those and is kept.
 */
export function publicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!url.username && !url.password && !url.search && !url.hash) return text;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString();
}

function stageEnabled(wf: Workflow, name: RegExp): boolean {
  return wf.pipeline.some((s) => name.test(s.stage) && s.enabled !== false);
}

export function writeLaunchConfig(dir: string, record: LaunchConfig): void {
  writeJsonAtomic(join(dir, LAUNCH_CONFIG_FILE), record);
}

/** The checkpoint's launch record; null when it was started from the command line. A broken record is refused. */
export function readLaunchConfig(dir: string): LaunchConfig | null {
  const problems: string[] = [];
  const record = readRecord(dir, LAUNCH_CONFIG_FILE, LaunchConfig, problems);
  if (problems.length > 0) throw new InvalidRecordError(problems[0] ?? `${LAUNCH_CONFIG_FILE} is unusable`, 'fix or remove it, then try again');
  return record;
}
