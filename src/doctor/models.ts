import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { KEY_VARIABLE } from '../core/config/env-vars.ts';
import { oneLine, SvcError } from '../core/errors.ts';
import { withoutCredentials } from '../core/text.ts';
import { MODEL_ROLES, type ModelChoice, modelFor } from '../llm/route.ts';
import { backendBase, listModels, type ModelList, modelListed } from './model-list.ts';
import { roleNeeded } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'models';

/** The roles served by one backend at one address. */
type Group = { backend: ModelChoice['backend']; base: string | null; choices: (ModelChoice & { needed: boolean })[]; needed: boolean };

/**
 * The model backends the settings name, one group per backend and address: the key is set, the
 * endpoint answers its model list, and each model the roles use is in it.
 */
export async function checkModels(cfg: Config, env: Env, fetchFn: typeof fetch = fetch): Promise<DoctorRow[]> {
  const wf = cfg.workflow.workflow;
  const rows: DoctorRow[] = [];
  const groups = new Map<string, Group>();
  for (const role of MODEL_ROLES) {
    let choice: ModelChoice;
    try {
      choice = modelFor(role, cfg);
    } catch (err) {
      rows.push(row(AREA, `${role} model`, 'fail', oneLine(err), roleNeeded(role, wf)));
      continue;
    }
    if (choice.backend === 'replay') continue;
    const base = backendBase(choice.backend, choice.baseUrl);
    const id = `${choice.backend} ${base}`;
    const g = groups.get(id) ?? { backend: choice.backend, base, choices: [], needed: false };
    const needed = roleNeeded(role, wf);
    g.choices.push({ ...choice, needed });
    g.needed ||= needed;
    groups.set(id, g);
  }
  const all = [...groups.values()];
  // items stay distinct: a backend at two addresses names the address, a model on two backends its group
  const label = (g: Group) => (g.base !== null && all.filter((o) => o.backend === g.backend).length > 1 ? `${g.backend} at ${withoutCredentials(g.base)}` : g.backend);
  const models = all.flatMap((g) => [...new Set(g.choices.map((c) => c.model))]);
  const shared = new Set(models.filter((m, i) => models.indexOf(m) !== i));
  const checked = await Promise.all(all.map((g) => checkGroup(g, label(g), shared, env, fetchFn)));
  return [...rows, ...checked.flat()];
}

async function checkGroup(g: Group, name: string, shared: ReadonlySet<string>, env: Env, fetchFn: typeof fetch): Promise<DoctorRow[]> {
  const rows: DoctorRow[] = [];
  const where = g.base === null ? g.backend : `${g.backend} at ${withoutCredentials(g.base)}`;
  const variable = KEY_VARIABLE[g.backend];
  if (variable) {
    const present = Boolean(env[variable]);
    // an OpenAI-compatible server often takes no key
    const optional = g.backend === 'openai-compatible';
    if (present) rows.push(row(AREA, `${name} key`, 'ok', `${variable} is set`, g.needed));
    else if (optional) rows.push(row(AREA, `${name} key`, 'ok', `${variable} is not set: the server is asked without a key`, g.needed));
    else {
      rows.push(row(AREA, `${name} key`, 'fail', `${variable} is not set`, g.needed, `set ${variable} in the environment or a .env file (svc settings --api-key), or choose another backend (SVC_BACKEND)`));
      rows.push(row(AREA, `${name} endpoint`, 'skip', `not asked: ${where} needs ${variable} first`, g.needed));
      return rows;
    }
  }
  if (g.base === null) return rows;
  let list: ModelList;
  try {
    list = await listModels(g.backend, g.base, env, fetchFn);
  } catch (err) {
    rows.push(row(AREA, `${name} endpoint`, 'fail', (err as Error).message, g.needed, err instanceof SvcError ? err.hint : undefined));
    return rows;
  }
  const listed = list.ids;
  rows.push(row(AREA, `${name} endpoint`, 'ok', `${where} answers: ${listed.length} model${listed.length === 1 ? '' : 's'} listed`, g.needed));
  const byModel = new Map<string, Group['choices']>();
  for (const c of g.choices) byModel.set(c.model, [...(byModel.get(c.model) ?? []), c]);
  for (const [model, choices] of byModel) {
    const roles = choices.map((c) => c.role).join(', ');
    const needed = choices.some((c) => c.needed);
    const item = shared.has(model) ? `${model} on ${name}` : model;
    if (modelListed(g.backend, model, listed)) rows.push(row(AREA, item, 'ok', `listed by ${where}; for ${roles}`, needed));
    else {
      const some = listed.slice(0, 5).join(', ');
      const fix = g.backend === 'localllm' ? `pull ${model} into the local model daemon, or choose a listed model` : `choose a model ${where} lists${some ? ` (${some}${listed.length > 5 ? ', …' : ''})` : ''}`;
      // a list that may leave out names the provider accepts cannot prove the model absent
      const status = list.complete ? 'fail' : 'warn';
      const maybe = list.complete ? '' : ` (${where} may still accept it)`;
      rows.push(row(AREA, item, status, `not in the model list of ${where}${maybe}; for ${roles}`, needed, `${fix} (SVC_MODEL, or the role's model setting)`));
    }
  }
  return rows;
}
