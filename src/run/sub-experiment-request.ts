import { describe, LAUNCH_FIELDS, type LaunchRequest, parseRunRequest } from './launch-request.ts';

export const SUB_EXPERIMENT_FIELDS = [...LAUNCH_FIELDS, 'parent_run_id', 'inherit_idea_index'] as const;

export type SubExperimentRequest = Partial<LaunchRequest> & { parent_run_id?: string; inherit_idea_index?: number };

/**
 * The body of POST /api/sub-experiments/launch: the launch fields (experiment_md optional: the
 * parent's by default), the parent's run id (the selected checkpoint by default) and the index of
 * the parent idea to pin. Every bad field is named in one message.
 */
export function parseSubExperimentRequest(body: unknown): SubExperimentRequest {
  const out: SubExperimentRequest = {};
  const { request } = parseRunRequest(body, {
    fields: SUB_EXPERIMENT_FIELDS,
    experimentRequired: false,
    what: 'sub-experiment request',
    check: (b, problems) => {
      if (b.parent_run_id !== undefined) {
        if (typeof b.parent_run_id === 'string' && b.parent_run_id !== '') out.parent_run_id = b.parent_run_id;
        else problems.push(`parent_run_id must be a run id, got ${describe(b.parent_run_id)}`);
      }
      if (b.inherit_idea_index !== undefined && b.inherit_idea_index !== null) {
        const i = b.inherit_idea_index;
        if (typeof i === 'number' && Number.isInteger(i) && i >= 0) out.inherit_idea_index = i;
        else problems.push(`inherit_idea_index must be a whole number of at least 0, got ${describe(i)}`);
      }
    },
  });
  return { ...request, ...out };
}
