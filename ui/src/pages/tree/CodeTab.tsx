import { useMemo, useState } from 'react';
import { Empty, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { changesOf, filesOf, firstFile } from './files.ts';
import { FileView } from './FileView.tsx';
import type { FilesChanged, FileTreeEntry } from './types.ts';
import { checkpointApi } from '../../api.ts';

type Props = { run: string; node: string; parent: string | null; changes: FilesChanged | null | undefined };

/** The files of the node's work directory; the one picked is shown against its parent's version. */
export function CodeTab({ run, node, parent, changes }: Props) {
  const tree = useApi<FileTreeEntry>(checkpointApi(run, `/filetree?node_id=${encodeURIComponent(node)}`));
  const files = useMemo(() => filesOf(tree.data), [tree.data]);
  const changed = useMemo(() => changesOf(changes), [changes]);
  const [picked, setPicked] = useState<string | null>(null);
  if (tree.error)
    return (
      <Empty title="No files">
        <p>{tree.error}</p>
      </Empty>
    );
  if (!tree.data) return <Loading what="the node's files" />;
  if (files.length === 0)
    return (
      <Empty title="No files">
        <p>The node's work directory holds no file of its own.</p>
      </Empty>
    );
  const shown = picked ?? firstFile(files, changed);
  return (
    <div className="tree-code">
      <nav className="tree-files" aria-label="Files of the node">
        <ul>
          {files.map((f) => (
            <li key={f.path}>
              <button type="button" aria-pressed={f.path === shown} onClick={() => setPicked(f.path)}>
                {f.path}
              </button>
              {changed.has(f.path) && <span className={`badge tree-${changed.get(f.path)}`}>{changed.get(f.path)}</span>}
            </li>
          ))}
        </ul>
        {tree.data.truncated && <p className="meta">Only the first files are listed.</p>}
        {(changes?.deleted.length ?? 0) > 0 && <p className="meta">Deleted from the parent: {changes?.deleted.join(', ')}</p>}
      </nav>
      <div className="tree-file">{shown && <FileView key={shown} run={run} node={node} path={shown} parent={parent} />}</div>
    </div>
  );
}
