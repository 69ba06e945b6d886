import { memo, useId, useState } from 'react';
import type { TreeLayout } from './layout.ts';
import { nodeName } from './TreeMarks.tsx';

/**
 * "Go to node": a node id typed, or chosen among the suggestions of what was typed (ids and
 * names). The suggestions are written when the field is first focused: a thousand choices laid
 * out with the page would delay drawing the tree they name.
 */
export function NodeFinder({ layout, onGo }: { layout: TreeLayout; onGo: (id: string) => void }) {
  const listId = useId();
  const [text, setText] = useState('');
  const [listed, setListed] = useState(false);
  return (
    <label>
      Go to node
      <input
        type="search"
        list={listId}
        value={text}
        placeholder="node id or name"
        autoComplete="off"
        onFocus={() => setListed(true)}
        onChange={(e) => {
          const typed = e.target.value;
          setText(typed);
          if (layout.byId.has(typed.trim())) onGo(typed.trim());
        }}
      />
      {listed && <NodeChoices id={listId} layout={layout} />}
    </label>
  );
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
