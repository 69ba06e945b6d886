import { SubExperimentBody } from '../schema/launch.ts';
import { parseRunRequest } from './launch-request.ts';

export type SubExperimentRequest = Omit<SubExperimentBody, 'inherit_idea_index'> & { inherit_idea_index?: number };

/**
 * The body of POST /api/sub-experiments/launch (src/schema/launch.ts): the launch fields
 * (experiment_md optional: the parent's by default), the parent's run id (the selected checkpoint
 * by default) and the index of the parent idea to pin. Every bad field is named in one message.
 */
export function parseSubExperimentRequest(body: unknown): SubExperimentRequest {
  const { inherit_idea_index, ...request } = parseRunRequest(SubExperimentBody, body, 'sub-experiment request') as SubExperimentBody;
  return inherit_idea_index === null || inherit_idea_index === undefined ? request : { ...request, inherit_idea_index };
}
