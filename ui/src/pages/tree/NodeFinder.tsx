import { type FormEvent, memo, useId, useState } from 'react';
import type { PlacedNode, TreeLayout } from './layout.ts';
import { nodeName } from './TreeMarks.tsx';

/**
 * "Go to node": a node's id or name, typed or picked among the suggestions, and Enter or Go.
 * The suggestions are written when the field is first focused: a thousand choices laid out with
 * the page would delay drawing the tree they name.
 */
export function NodeFinder({ layout, onGo }: { layout: TreeLayout; onGo: (node: PlacedNode) => void }) {
  const listId = useId();
  const [text, setText] = useState('');
  const [listed, setListed] = useState(false);
  const [problem, setProblem] = useState('');
  const go = (e: FormEvent) => {
    e.preventDefault();
    const wanted = text.trim();
    if (!wanted) return;
    const found = findNode(layout, wanted);
    if (typeof found === 'string') {
      setProblem(found);
      return;
    }
    setProblem('');
    setText('');
    onGo(found);
  };
  return (
    <form className="tree-find" role="search" onSubmit={go}>
      <label>
        Go to node
        <input
          type="search"
          list={listId}
          value={text}
          placeholder="node id or name"
          autoComplete="off"
          aria-describedby={problem ? `${listId}-problem` : undefined}
          onFocus={() => setListed(true)}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit">Go</button>
      {listed && <NodeChoices id={listId} layout={layout} />}
      <span id={`${listId}-problem`} className="notice error" role="status" hidden={!problem}>
        {problem}
      </span>
    </form>
  );
}

/** The node `wanted` names: its id, else the one node of that name (any case); else why none is. */
function findNode(layout: TreeLayout, wanted: string): PlacedNode | string {
  const byId = layout.byId.get(wanted);
  if (byId) return byId;
  const named = layout.nodes.filter((n) => nodeName(n).toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return named[0]!;
  if (named.length > 1) return `${named.length} nodes are named “${wanted}”: give one's id, such as ${named[0]!.id}.`;
  return `No node of this tree has the id or name “${wanted}”.`;
}

/** Every node as a suggestion: its id, named by its name. */
const NodeChoices = memo(function NodeChoices({ id, layout }: { id: string; layout: TreeLayout }) {
  return (
    <datalist id={id}>
      {layout.nodes.map((n) => (
        <option key={n.id} value={n.id} label={nodeName(n) === n.id ? undefined : nodeName(n)} />
      ))}
    </datalist>
  );
});
