import { basename } from 'node:path';
import type { NodeRecord } from '../../schema/checkpoint.ts';
import { NotFoundError } from '../errors.ts';
import { readTree } from './tree.ts';

/**
 * The whole record of one node of a checkpoint's tree (its trace_log and artifacts with it): what
 * a summary's outline of the nodes leaves out.
 */
export function readNodeRecord(dir: string, nodeId: string): NodeRecord {
  const { tree, problems } = readTree(dir);
  if (!tree) throw new NotFoundError(`${basename(dir)} has no readable tree file`, problems.join('; ') || undefined);
  const node = tree.nodes.find((n) => n.id === nodeId);
  if (!node) throw new NotFoundError(`no node ${nodeId} in the tree of ${basename(dir)}`);
  return node;
}
