import { type Placement, placementText } from '../core/checkpoint/placement.ts';
import type { NodeRecord } from '../schema/checkpoint.ts';
import { fmtScore } from './output.ts';

type Item = { node: NodeRecord; prefix: string; branch: string };

/**
 * The node tree as indented text, one line at a time to `emit`, children under their parent in
 * file order. Nodes whose parent is missing are drawn as extra roots, and nodes caught in a parent
 * cycle after them, so a damaged tree still shows every node it has.
 */
export function renderTree(nodes: NodeRecord[], bestId: string | null, placements: Record<string, Placement>, emit: (line: string) => void): void {
  const ids = new Set(nodes.map((n) => n.id));
  const children = new Map<string, NodeRecord[]>();
  const roots: NodeRecord[] = [];
  for (const n of nodes) {
    const parent = n.parent_id;
    if (typeof parent === 'string' && ids.has(parent) && parent !== n.id) children.set(parent, [...(children.get(parent) ?? []), n]);
    else roots.push(n);
  }
  const seen = new Set<string>();
  // an explicit stack: a 1,000-deep chain must not overflow the call stack
  const walk = (stack: Item[]) => {
    for (let item = stack.pop(); item; item = stack.pop()) {
      if (seen.has(item.node.id)) continue;
      seen.add(item.node.id);
      emit(`${item.prefix}${item.branch}${describe(item.node, item.node.id === bestId, placements[item.node.id])}`);
      const kids = children.get(item.node.id) ?? [];
      const prefix = item.prefix + (item.branch === '' ? '' : item.branch.startsWith('└') ? '   ' : '│  ');
      for (let i = kids.length - 1; i >= 0; i--) {
        const node = kids[i];
        if (node) stack.push({ node, prefix, branch: i === kids.length - 1 ? '└─ ' : '├─ ' });
      }
    }
  };
  const several = roots.length > 1;
  walk(roots.map((node, i) => ({ node, prefix: '', branch: several ? (i === roots.length - 1 ? '└─ ' : '├─ ') : '' })).reverse());
  for (const n of nodes) {
    if (seen.has(n.id)) continue;
    emit('(nodes in a parent cycle)');
    walk([{ node: n, prefix: '', branch: '└─ ' }]);
  }
}

/** Fields are checked for type here: files from other tools may hold anything. */
function describe(n: NodeRecord, best: boolean, placement: Placement | undefined): string {
  const score = n.metrics?._scientific_score;
  const parts = [shortId(n.id), `[${typeof n.status === 'string' ? n.status : '?'}]`];
  if (typeof n.label === 'string' && n.label) parts.push(n.label);
  if (typeof score === 'number') parts.push(`score ${fmtScore(score)}`);
  if (best) parts.push('★ best');
  const where = placement ? placementText(placement) : '';
  if (where) parts.push(where);
  const title = (typeof n.name === 'string' ? n.name : '').replace(/^\w+:\s*/, '').trim();
  if (title) parts.push(`— ${title.length > 60 ? `${title.slice(0, 57)}...` : title}`);
  return parts.join(' ');
}

/** node_<run_id>_root is long; the root reads better as "root". */
function shortId(id: string): string {
  return id.endsWith('_root') ? 'root' : id;
}
