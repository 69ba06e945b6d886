import type { Config } from '../core/config/config.ts';
import { type Env, KEY_VARIABLE } from '../core/config/env-vars.ts';
import { wantsMaEngine } from '../ideas/ma-engine.ts';
import { maEmbedModel } from '../ideas/ma-settings.ts';
import { oneLine, SvcError } from '../core/errors.ts';
import { withoutCredentials } from '../core/text.ts';
import { modelHandle, withMemoryEmbedding } from '../memory/embedding-handle.ts';
import { embeddingChoice, MODEL_ROLES, type ModelChoice, modelFor } from '../llm/route.ts';
import { noEmbeddingsApi } from '../llm/providers.ts';
import { backendBase, listModels, type ModelList, modelListed } from './model-list.ts';
import { roleNeeded } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'models';

/** What a model is used for in the table: a role, or an embedding use. */
type Use = ModelChoice & { needed: boolean; use: string };
/** The uses served by one backend at one address. */
type Group = { backend: ModelChoice['backend']; base: string | null; choices: Use[]; needed: boolean };

/**
 * The model backends the settings name, one group per backend and address: the key is set, the
 * endpoint answers its model list, and each model the roles use is in it.
 */
export async function checkModels(cfg: Config, env: Env, fetchFn: typeof fetch = fetch): Promise<DoctorRow[]> {
  const wf = cfg.workflow.workflow;
  const rows: DoctorRow[] = [];
  const groups = new Map<string, Group>();
  const add = (choice: ModelChoice, use: string, needed: boolean) => {
    if (choice.backend === 'replay') return;
    const base = backendBase(choice.backend, choice.baseUrl);
    const id = `${choice.backend} ${base}`;
    const g = groups.get(id) ?? { backend: choice.backend, base, choices: [], needed: false };
    g.choices.push({ ...choice, needed, use });
    g.needed ||= needed;
    groups.set(id, g);
  };
  for (const role of MODEL_ROLES) {
    try {
      add(modelFor(role, cfg), role, roleNeeded(role, wf));
    } catch (err) {
      rows.push(row(AREA, `${role} model`, 'fail', oneLine(err), roleNeeded(role, wf)));
    }
  }
  // both fall back without their embedding model (memory to keywords, ideas to the default loop): never needed
  for (const { use, setting, value } of embeddingUses(cfg, env)) {
    try {
      const choice = embeddingChoice(value, setting, cfg);
      if (choice.backend === 'providerb') throw noEmbeddingsApi(choice);
      add(choice, use, false);
    } catch (err) {
      const own = err instanceof SvcError;
      rows.push(row(AREA, `${use} model`, 'warn', own ? err.message : oneLine(err), false, own ? `${err.hint} (${setting})` : undefined));
    }
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
    const roles = choices.map((c) => c.use).join(', ');
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

/** The embedding models the settings name: memory search's, and the multi-agent idea engine's when it is on. */
function embeddingUses(cfg: Config, env: Env): { use: string; setting: string; value: string }[] {
  const uses: { use: string; setting: string; value: string }[] = [];
  const memory = modelHandle(withMemoryEmbedding(env, cfg).MEMBACKEND_EMBEDDING_CONFIG);
  if (memory) uses.push({ use: 'memory embeddings', setting: 'MEMBACKEND_EMBEDDING_CONFIG', value: memory });
  const ideas = maEmbedModel(env);
  if (ideas && wantsMaEngine(env)) uses.push({ use: 'idea engine embeddings', setting: 'SVC_IDEA_MA_EMBED_MODEL', value: ideas });
  return uses;
}
