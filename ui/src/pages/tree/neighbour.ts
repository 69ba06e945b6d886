import type { PlacedNode, TreeLayout } from './layout.ts';

/**
 * The node an arrow key moves to from `n` in the left-to-right tree: ← its parent, → its first
 * child, ↑ ↓ the sibling above or below, Home the first root. Null when there is none.
 */
export function neighbour(layout: TreeLayout, n: PlacedNode, key: string): PlacedNode | null {
  const siblings = () => n.parent?.children ?? layout.nodes.filter((m) => m.parent === null);
  switch (key) {
    case 'ArrowLeft':
      return n.parent;
    case 'ArrowRight':
      return n.children[0] ?? null;
    case 'ArrowUp':
    case 'ArrowDown': {
      const list = siblings();
      return list[list.indexOf(n) + (key === 'ArrowUp' ? -1 : 1)] ?? null;
    }
    case 'Home':
      return layout.nodes[0] ?? null;
    default:
      return null;
  }
}
