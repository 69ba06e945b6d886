import type { SkillDef } from '../mcp/tool.ts';

/**
 * Skills compiled into this binary, served by `svc skill serve <name>`. Each loads on demand so
 * that a skill process starts only the code it serves; what they offer is listed, without loading
 * any, in the tool manifest generated from them (manifest.ts). A workflow may name a built-in skill
 * that this version does not have yet; skills-list says so.
 */
const LOADERS: Record<string, () => Promise<SkillDef>> = {
  'benchmark-skill': () => import('./benchmark/index.ts').then((m) => m.default),
  'coding-skill': () => import('./coding/index.ts').then((m) => m.default),
  'evaluator-skill': () => import('./evaluator/index.ts').then((m) => m.default),
  'hpc-skill': () => import('./hpc/index.ts').then((m) => m.default),
  'idea-skill': () => import('./idea/index.ts').then((m) => m.default),
  'memory-skill': () => import('./memory/index.ts').then((m) => m.default),
  'orchestrator-skill': () => import('./orchestrator/index.ts').then((m) => m.default),
  'paper-re-skill': () => import('./paper-re/index.ts').then((m) => m.default),
  'paper-skill': () => import('./paper/index.ts').then((m) => m.default),
  'plot-skill': () => import('./plot/index.ts').then((m) => m.default),
  'replicate-skill': () => import('./replicate/index.ts').then((m) => m.default),
  'transform-skill': () => import('./transform/index.ts').then((m) => m.default),
  'vlm-skill': () => import('./vlm/index.ts').then((m) => m.default),
  'web-skill': () => import('./web/index.ts').then((m) => m.default),
};

export const BUILTIN_SKILLS: ReadonlySet<string> = new Set(Object.keys(LOADERS));

export async function loadSkill(name: string): Promise<SkillDef | undefined> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  return load ? await load() : undefined;
}
