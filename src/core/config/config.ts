import { dirname, join } from 'node:path';
import { InputError } from '../errors.ts';
import { checkpointsRoot, projectRoot } from '../workspace.ts';
import type { DotenvEntry } from './dotenv.ts';
import { dotenvFor, mergedEnv, secretsAsReferences } from './environment.ts';
import type { Env } from './env-vars.ts';
import { profile } from './profiles.ts';
import { readSavedSettings, type SavedSettings, savedValue } from './saved-settings.ts';
import { parseSetting, SETTINGS, type Setting, type SettingValue, setting, settingRule } from './settings.ts';
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

/** One setting's value and where it came from. */
export type Resolved = Effective & {
  /** the layer as the dashboard names it: saved, env NAME, profile P, workflow, default or explicit */
  origin: string;
  /** the setting whose value it took, being unset itself */
  via?: string;
};

export type ResolveOptions = {
  /** a value from the caller (a tool argument or flag) */
  explicit?: SettingValue;
  /** a value that does not parse is returned as it is, for showing, instead of refused */
  lenient?: boolean;
};

/** The effective value of one run setting and where it came from. */
export function effective(cfg: Config, key: string, explicit?: SettingValue): Effective {
  const s = setting(key);
  if (!s || s.pageOnly) throw new InputError(`unknown setting '${key}'`);
  const { value, source } = resolveSetting(cfg, s, { explicit });
  return { key, value, source };
}

export function allEffective(cfg: Config): Effective[] {
  return SETTINGS.filter((s) => !s.pageOnly).map((s) => effective(cfg, s.key));
}

/**
 * The one resolver: the first layer that has a value (the order of `Setting`), else the setting
 * it falls back to, else its default. The page, `svc settings` and the run all read values here.
 */
export function resolveSetting(cfg: Config, s: Setting, opts: ResolveOptions = {}): Resolved {
  const hit = firstLayer(cfg, s, opts.explicit);
  if (hit) return { key: s.key, value: coerce(s, hit, opts.lenient), source: hit.source, origin: hit.origin };
  const base = s.fallback === undefined ? undefined : setting(s.fallback);
  if (base) {
    const r = resolveSetting(cfg, base, { lenient: opts.lenient });
    return { ...r, key: s.key, source: `${r.source} (as ${base.key})`, via: base.key };
  }
  const value = typeof s.default === 'function' ? s.default(cfg.workflow.workflow, { checkpointsRoot: cfg.checkpointsRoot }) : structuredClone(s.default ?? null);
  return { key: s.key, value, source: 'default', origin: 'default' };
}

type Hit = { raw: unknown; source: string; origin: string };

function firstLayer(cfg: Config, s: Setting, explicit: SettingValue | undefined): Hit | undefined {
  const fromEnv = firstEnv(cfg, s.env);
  if (s.envBeatsExplicit && fromEnv) return fromEnv;
  if (isPresent(explicit)) return { raw: explicit, source: 'argument', origin: 'explicit' };
  return fromSaved(cfg, s) ?? fromEnv ?? fromProfile(cfg, s) ?? fromWorkflow(cfg, s) ?? firstEnv(cfg, s.envFallback);
}

/** settings.json: what the user saved, under the run's name or the page's; an empty value is unset. */
function fromSaved(cfg: Config, s: Setting): Hit | undefined {
  for (const name of [s.saved, ...(s.page ?? [])]) {
    if (name === undefined) continue;
    const raw = savedValue(cfg.saved, name);
    if (isPresent(raw)) return { raw, source: `${cfg.savedPath}: ${name}`, origin: 'saved' };
  }
  return undefined;
}

/** The process environment, then the .env files; an empty value is unset. */
function firstEnv(cfg: Config, names: readonly string[] = []): Hit | undefined {
  for (const name of names) {
    const v = cfg.env[name];
    if (v !== undefined && v !== '') return { raw: v, source: `env ${name}`, origin: `env ${name}` };
    const d = cfg.dotenv.get(name);
    if (d && d.value !== '') return { raw: d.value, source: `${d.file}: ${name}`, origin: `env ${name}` };
  }
  return undefined;
}

function fromProfile(cfg: Config, s: Setting): Hit | undefined {
  const raw = s.profile ? profile(cfg.profile)?.[s.key] : undefined;
  return isPresent(raw) ? { raw, source: `profile ${cfg.profile}`, origin: `profile ${cfg.profile}` } : undefined;
}

function fromWorkflow(cfg: Config, s: Setting): Hit | undefined {
  const raw = s.workflow?.get(cfg.workflow.workflow);
  return s.workflow && isPresent(raw) ? { raw, source: `${cfg.workflow.path}: ${s.workflow.at}`, origin: 'workflow' } : undefined;
}

function coerce(s: Setting, hit: Hit, lenient = false): SettingValue {
  const value = parseSetting(s, hit.raw);
  if (value !== undefined) return value;
  if (lenient) return asText(s, hit.raw);
  throw new InputError(`${s.key} from ${hit.source} must be ${settingRule(s)}, got '${String(hit.raw)}'`);
}

/** A value that does not parse, for showing: numeric text as a number, anything else as it is. */
function asText(s: Setting, raw: unknown): SettingValue {
  const numeric = (s.type === 'int' || s.type === 'number') && typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw.trim()));
  return numeric ? Number((raw as string).trim()) : (raw as SettingValue);
}
