import { fileSize } from '../../../format.ts';
import type { TreeNode } from '../types.ts';
import { fileHref } from '../urls.ts';

type Props = { id: string; node: TreeNode; selected: string };

/** A directory's entries: folders fold (open when they hold the selected file), files link to the viewer. */
export function FileTree({ id, node, selected }: Props) {
  return (
    <ul className="results-tree-list">
      {(node.children ?? []).map((c) =>
        c.type === 'dir' ? (
          <li key={c.path}>
            <details open={selected.startsWith(`${c.path}/`)}>
              <summary>
                {c.name}/ <span className="meta">{fileSize(c.size)}</span>
              </summary>
              <FileTree id={id} node={c} selected={selected} />
              {c.truncated && <p className="meta">More entries than are shown.</p>}
            </details>
          </li>
        ) : (
          <li key={c.path}>
            <a href={fileHref(id, c.path)} aria-current={c.path === selected ? 'page' : undefined}>
              {c.name}
            </a>{' '}
            <span className="meta">{fileSize(c.size)}</span>
          </li>
        ),
      )}
    </ul>
  );
}

/** The node at `path` in the tree, if it is there. */
export function findNode(node: TreeNode, path: string): TreeNode | null {
  if (node.path === path) return node;
  for (const c of node.children ?? []) {
    if (c.path === path || path.startsWith(`${c.path}/`)) {
      const found = findNode(c, path);
      if (found) return found;
    }
  }
  return null;
}
