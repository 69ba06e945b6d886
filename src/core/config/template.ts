import { mapValues } from '../map-values.ts';

/**
 * `{{name}}` template variables in stage inputs, skill paths and prompt text. Names use dot
 * notation (`llm.model`, `stages.write_paper.outputs.file`). Objects render as JSON.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

export type TemplateVars = Record<string, unknown>;

export function lookup(vars: TemplateVars, dotted: string): unknown {
  let cur: unknown = vars;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * Fill placeholders; one that names nothing is left as written, so the caller can report it
 * with `unresolvedPlaceholders` rather than pass an empty string to a tool.
 */
export function renderTemplate(text: string, vars: TemplateVars): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = lookup(vars, name);
    if (value === undefined || value === null) return whole;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** Render every string inside a value (stage inputs are nested objects). */
export function renderDeep<T>(value: T, vars: TemplateVars): T {
  return mapValues(value, (s) => renderTemplate(s, vars));
}

export function unresolvedPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

export type TemplateContext = {
  checkpointDir: string;
  projectRoot: string;
  workflow: { llm: object; resources: object; author_name: string; claim_gate_policy: object };
  /** outputs of stages that have run, by stage name */
  stages?: Record<string, { outputs: { file?: string } }>;
  extra?: TemplateVars;
};

/** The variables every template may use: the spec's list, filled from one run's context. */
export function templateVars(ctx: TemplateContext): TemplateVars {
  const wf = ctx.workflow;
  return {
    ckpt: ctx.checkpointDir,
    checkpoint_dir: ctx.checkpointDir,
    ari_root: ctx.projectRoot,
    llm: wf.llm,
    resources: wf.resources,
    author_name: wf.author_name,
    claim_gate_policy: wf.claim_gate_policy,
    stages: ctx.stages ?? {},
    // no review of the figures yet: the first generate_figures gets none
    vlm_feedback: '',
    ...ctx.extra,
  };
}
