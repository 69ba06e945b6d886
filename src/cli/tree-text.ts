import type { NodeRecord } from '../schema/checkpoint.ts';
import { fmtScore } from './output.ts';

/**
 * The node tree as indented text, children under their parent in file order. Nodes whose parent
 * is missing are drawn as extra roots, so a damaged tree still shows every node it has.
 */
export function renderTree(nodes: NodeRecord[], bestId: string | null): string[] {
  const ids = new Set(nodes.map((n) => n.id));
  const children = new Map<string, NodeRecord[]>();
  const roots: NodeRecord[] = [];
  for (const n of nodes) {
    const parent = n.parent_id;
    if (parent && ids.has(parent) && parent !== n.id) {
      const list = children.get(parent) ?? [];
      list.push(n);
      children.set(parent, list);
    } else roots.push(n);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  // iterative walk: a 1,000-deep chain must not overflow the stack
  const stack: { node: NodeRecord; prefix: string; branch: string }[] = roots
    .map((node, i) => ({ node, prefix: '', branch: roots.length > 1 ? (i === roots.length - 1 ? '└─ ' : '├─ ') : '' }))
    .reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item || seen.has(item.node.id)) continue;
    seen.add(item.node.id);
    out.push(`${item.prefix}${item.branch}${describe(item.node, item.node.id === bestId)}`);
    const kids = children.get(item.node.id) ?? [];
    const childPrefix = item.prefix + (item.branch === '' ? '' : item.branch.startsWith('└') ? '   ' : '│  ');
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i];
      if (kid) stack.push({ node: kid, prefix: childPrefix, branch: i === kids.length - 1 ? '└─ ' : '├─ ' });
    }
  }
  return out;
}

function describe(n: NodeRecord, best: boolean): string {
  const score = n.metrics?._scientific_score;
  const parts = [shortId(n.id), `[${n.status ?? '?'}]`];
  if (n.label) parts.push(n.label);
  if (typeof score === 'number') parts.push(`score ${fmtScore(score)}`);
  if (best) parts.push('★ best');
  const title = (n.name ?? '').replace(/^\w+:\s*/, '').trim();
  if (title) parts.push(`— ${title.length > 60 ? `${title.slice(0, 57)}...` : title}`);
  return parts.join(' ');
}

/** node_<run_id>_root is long; the root reads better as "root". */
function shortId(id: string): string {
  return id.endsWith('_root') ? 'root' : id;
}
