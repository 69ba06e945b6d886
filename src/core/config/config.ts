import { dirname, join } from 'node:path';
import type { Workflow } from '../../schema/workflow.ts';
import { InputError } from '../errors.ts';
import { checkpointsRoot, projectRoot } from '../workspace.ts';
import type { DotenvEntry } from './dotenv.ts';
import { dotenvFor, mergedEnv, secretsAsReferences } from './environment.ts';
import type { Env } from './env-vars.ts';
import { profile } from './profiles.ts';
import { readSavedSettings, type SavedSettings } from './saved-settings.ts';
import { SETTINGS, type SettingDef, type SettingValue, settingDef } from './setting-defs.ts';
import { type LoadedWorkflow, loadWorkflow } from './workflow.ts';
import { isPresent } from '../values.ts';

/** Everything that decides an effective value, loaded once per command. */
export type Config = {
  /** the process environment as given (wins over .env files) */
  env: Env;
  dotenv: Map<string, DotenvEntry>;
  workflow: LoadedWorkflow;
  savedPath: string;
  saved: SavedSettings;
  profile?: string;
  projectRoot: string;
  checkpointsRoot: string;
};

export type LoadOptions = {
  env?: Env;
  cwd?: string;
  checkpointDir?: string;
  configPath?: string;
  profile?: string;
  /** override of the checkpoints directory (a --checkpoints flag) */
  checkpoints?: string;
  /** leave secret variables unexpanded in the workflow: for showing configuration, never for running */
  hideSecrets?: boolean;
};

export function loadConfig(opts: LoadOptions = {}): Config {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const root = projectRoot(env, cwd);
  const dotenv = dotenvFor(env, cwd, opts.checkpointDir);
  const merged = mergedEnv(env, dotenv);
  profile(opts.profile); // reject an unknown profile before anything else
  const ckRoot = opts.checkpoints ?? checkpointsRoot(merged, cwd);
  const savedPath = join(dirname(ckRoot), 'settings.json');
  return {
    env,
    dotenv,
    workflow: loadWorkflow({ checkpointDir: opts.checkpointDir, configPath: opts.configPath, env: opts.hideSecrets ? secretsAsReferences(merged) : merged }),
    savedPath,
    saved: readSavedSettings(savedPath),
    profile: opts.profile,
    projectRoot: root,
    checkpointsRoot: ckRoot,
  };
}

export type Effective = { key: string; value: SettingValue; source: string };

/** The effective value of one setting and where it came from. */
export function effective(cfg: Config, key: string, explicit?: SettingValue): Effective {
  const def = settingDef(key);
  if (!def) throw new InputError(`unknown setting '${key}'`);
  return resolve(cfg, def, explicit, new Set());
}

export function allEffective(cfg: Config): Effective[] {
  return SETTINGS.map((d) => resolve(cfg, d, undefined, new Set()));
}

function resolve(cfg: Config, def: SettingDef, explicit: SettingValue | undefined, seen: Set<string>): Effective {
  const hit = (value: unknown, source: string): Effective => ({ key: def.key, value: coerce(def, value, source), source });
  const fromEnv = firstEnv(cfg, def.env ?? []);
  if (def.envBeatsExplicit && fromEnv) return hit(fromEnv.value, fromEnv.source);
  if (isPresent(explicit)) return hit(explicit, 'argument');
  // settings.json (what the user saved, in the dashboard or with svc settings) over the
  // environment over the workflow: the order the dashboard shows, so it shows what the run uses
  const savedKey = [def.saved, ...(def.savedAs ?? [])].find((k) => k !== undefined && isPresent(cfg.saved[k]));
  if (savedKey) return hit(cfg.saved[savedKey], `${cfg.savedPath}: ${savedKey}`);
  if (fromEnv) return hit(fromEnv.value, fromEnv.source);
  const overlay = def.profile ? profile(cfg.profile) : undefined;
  if (overlay && isPresent(overlay[def.key])) return hit(overlay[def.key], `profile ${cfg.profile}`);
  const wf: Workflow = cfg.workflow.workflow;
  const inWorkflow = def.workflow?.(wf);
  if (isPresent(inWorkflow)) return hit(inWorkflow, `${cfg.workflow.path}: ${def.workflowKey}`);
  const late = firstEnv(cfg, def.envFallback ?? []);
  if (late) return hit(late.value, late.source);
  if (def.fallback && !seen.has(def.fallback)) {
    const base = settingDef(def.fallback);
    if (base) {
      seen.add(def.key);
      const r = resolve(cfg, base, undefined, seen);
      return { key: def.key, value: r.value, source: `${r.source} (as ${def.fallback})` };
    }
  }
  const d = typeof def.default === 'function' ? def.default(wf, { checkpointsRoot: cfg.checkpointsRoot }) : (def.default ?? null);
  return { key: def.key, value: d, source: 'default' };
}

function firstEnv(cfg: Config, names: readonly string[]): { value: string; source: string } | undefined {
  for (const name of names) {
    const v = cfg.env[name];
    if (v !== undefined && v !== '') return { value: v, source: `env ${name}` };
    const d = cfg.dotenv.get(name);
    if (d && d.value !== '') return { value: d.value, source: `${d.file}: ${name}` };
  }
  return undefined;
}

function coerce(def: SettingDef, raw: unknown, source: string): SettingValue {
  if (def.type === 'int' || def.type === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
    const min = def.min ?? Number.MIN_VALUE;
    const ok = Number.isFinite(n) && (def.type === 'number' || Number.isInteger(n)) && n >= min;
    if (!ok) {
      const kind = `${def.type === 'int' ? 'whole ' : ''}number`;
      throw new InputError(`${def.key} from ${source} must be a ${def.min === undefined ? `positive ${kind}` : `${kind} of at least ${def.min}`}, got '${String(raw)}'`);
    }
    return n;
  }
  const s = String(raw);
  if (def.choices && !def.choices.includes(s)) {
    throw new InputError(`${def.key} from ${source} must be one of ${def.choices.join(', ')}, got '${s}'`);
  }
  return s;
}
