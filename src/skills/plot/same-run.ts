import { InputError, InvalidRecordError, NotFoundError } from '../../core/errors.ts';
import { readJsonObject } from '../../core/json-object.ts';
import { statOrNull } from '../../core/paths.ts';
import { isMapping } from '../../core/values.ts';
import type { ScienceData } from '../../schema/science-data.ts';

/**
 * Science data made from another run than the tree at `nodesPath` (a stale science_data.json left
 * in a reused checkpoint, a path mixed up) would put that run's numbers in this run's paper: every
 * configuration must be a node of the tree.
 */
export function checkSameRun(data: ScienceData, sciencePath: string, nodesPath: string): void {
  const hint = "give the run's nodes_tree.json, or leave nodes_json_path out";
  const st = statOrNull(nodesPath);
  if (!st) throw new NotFoundError(`no node tree at ${nodesPath}`, hint);
  if (!st.isFile()) throw new InputError(`${nodesPath} is not a file`, hint);
  const tree = readJsonObject(nodesPath, hint) as Record<string, unknown>;
  if (!Array.isArray(tree.nodes)) throw new InvalidRecordError(`${nodesPath} has no nodes list`, "give the run's nodes_tree.json");
  const ids = new Set(tree.nodes.map((n) => (isMapping(n) ? n.id : undefined)));
  const stranger = data.configurations.find((c) => !ids.has(c.node_id));
  if (stranger) {
    throw new InputError(`${sciencePath} is not from the run of ${nodesPath}: its configuration ${stranger.node_id} is none of that run's nodes`, 'make the science data of this run again (the transform_data stage)');
  }
}
