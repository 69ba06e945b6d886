import { readFileSync, statSync } from 'node:fs';
import { InputError, NotFoundError, oneLine } from '../core/errors.ts';
import { isSafeId } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { isMapping } from '../core/values.ts';

/** What science data needs of a node of nodes_tree.json. */
export type TreeNodeView = {
  id: string;
  parent_id: string | null;
  depth: number;
  status: string;
  label: string;
  raw_label: string;
  name: string;
  has_real_data: boolean;
};

/** nodes_tree.json as the pipeline pre-flight writes it (or the search's plain view of it). */
export type NodesFile = { experiment_goal: string; nodes: TreeNodeView[] };

/** A nodes file is a tree's text; far beyond this it is not one. */
const MAX_BYTES = 512 * 1024 * 1024;

/**
 * Reads a nodes_tree.json. A missing, empty or damaged file, or one without a node list, is an
 * InputError (NotFoundError) naming it; a node without a usable id is one too, since its numbers
 * could not be traced to a work directory.
 */
export function readNodesFile(path: string): NodesFile {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(`nodes_json_path '${printable(path)}' does not exist`, 'the pipeline pre-flight writes nodes_tree.json into the checkpoint: run svc paper <checkpoint>');
  if (!st.isFile()) throw new InputError(`nodes_json_path '${printable(path)}' is not a file`);
  if (st.size === 0) throw new InputError(`nodes_json_path '${printable(path)}' is empty`, 'run the pipeline again (svc paper <checkpoint>): its pre-flight rewrites nodes_tree.json from tree.json');
  if (st.size > MAX_BYTES) throw new InputError(`nodes_json_path '${printable(path)}' is over ${MAX_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`nodes_json_path '${printable(path)}' is not valid JSON: ${oneLine(err)}`, 'run the pipeline again: its pre-flight rewrites nodes_tree.json from tree.json');
  }
  if (!isMapping(raw) || !Array.isArray(raw.nodes)) throw new InputError(`nodes_json_path '${printable(path)}' has no nodes list`, 'give the checkpoint\'s nodes_tree.json');
  const nodes = raw.nodes.map((n, i) => nodeView(n, `${printable(path)} node ${i}`));
  return { experiment_goal: typeof raw.experiment_goal === 'string' ? raw.experiment_goal : '', nodes };
}

function nodeView(raw: unknown, where: string): TreeNodeView {
  if (!isMapping(raw) || typeof raw.id !== 'string' || !isSafeId(raw.id)) throw new InputError(`${where} has no valid id`, 'node ids are names such as node_1a2b3c4d');
  const str = (v: unknown, d = '') => (typeof v === 'string' ? v : d);
  const label = str(raw.label, 'other');
  return {
    id: raw.id,
    parent_id: typeof raw.parent_id === 'string' ? raw.parent_id : null,
    depth: typeof raw.depth === 'number' && Number.isInteger(raw.depth) && raw.depth >= 0 ? raw.depth : 0,
    status: str(raw.status),
    label,
    raw_label: str(raw.raw_label, label),
    name: str(raw.name),
    has_real_data: raw.has_real_data === true,
  };
}
