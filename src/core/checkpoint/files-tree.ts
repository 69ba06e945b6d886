import { realOrSelf } from '../paths.ts';
import { listDir } from './files-walk.ts';

export type TreeNode = {
  name: string;
  /** relative to the tree's root, '/'-separated; '' for the root */
  path: string;
  type: 'dir' | 'file';
  /** a file's size; for a directory, the total of what the tree shows below it */
  size: number;
  children?: TreeNode[];
  /** set on a directory whose entries were cut by a cap (and on the root when any was) */
  truncated?: true;
};

export type TreeLimits = { maxDepth?: number; maxEntries?: number };

export const MAX_TREE_DEPTH = 12;
export const MAX_TREE_ENTRIES = 5_000;

/**
 * The directory tree under `root`, for the file browser: directories first, then files, names
 * sorted; tooling directories, temp files and secrets left out, and files `hideFile` names.
 */
export function fileTree(root: string, name: string, hideFile: (name: string) => boolean = () => false, limits: TreeLimits = {}): TreeNode {
  const rootReal = realOrSelf(root);
  const maxDepth = limits.maxDepth ?? MAX_TREE_DEPTH;
  let left = limits.maxEntries ?? MAX_TREE_ENTRIES;
  let cut = false;

  const build = (abs: string, rel: string, dirName: string, depth: number): TreeNode => {
    const node: TreeNode = { name: dirName, path: rel, type: 'dir', size: 0, children: [] };
    const entries = listDir(rootReal, abs, rel, hideFile).sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'dir' ? -1 : 1));
    if (entries.length > 0 && depth >= maxDepth) node.truncated = true;
    for (const e of depth >= maxDepth ? [] : entries) {
      if (left <= 0) {
        node.truncated = true;
        break;
      }
      left -= 1;
      const child = e.kind === 'dir' ? build(e.abs, e.rel, e.name, depth + 1) : { name: e.name, path: e.rel, type: 'file' as const, size: e.stat.size };
      node.size += child.size;
      node.children?.push(child);
    }
    if (node.truncated) cut = true;
    return node;
  };

  const tree = build(root, '', name, 0);
  if (cut) tree.truncated = true;
  return tree;
}
