import { useState } from 'react';
import { Empty, ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import type { TreeNode } from '../types.ts';
import { fileHref } from '../urls.ts';
import { checkpointApi } from '../../../api.ts';
import { FileTree, findNode } from './FileTree.tsx';
import { FileView } from './FileView.tsx';
import { NewFile } from './NewFile.tsx';
import { Upload } from './Upload.tsx';

type Props = { id: string; selected: string; activeId: string | null; reloadActive: () => void; changed: () => void };

/** The checkpoint's files: a tree to browse, the chosen file to view, edit or delete, a new file, uploads. */
export function FilesSection({ id, selected, activeId, reloadActive, changed }: Props) {
  const tree = useApi<TreeNode>(checkpointApi(id, '/filetree'));
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const report = (ok: boolean, text: string) => setNotice({ ok, text });
  const refresh = () => {
    tree.reload();
    changed();
  };
  const open = (path: string) => {
    location.hash = fileHref(id, path);
    refresh();
  };
  let browser;
  if (tree.error) browser = <ErrorMessage message={tree.error} retry={tree.reload} />;
  else if (!tree.data) browser = <Loading what="the files" />;
  else if ((tree.data.children ?? []).length === 0)
    browser = (
      <Empty title="No files">
        <p>The run has written nothing here yet.</p>
      </Empty>
    );
  else
    browser = (
      <>
        <FileTree id={id} node={tree.data} selected={selected} />
        {tree.data.truncated && <p className="meta">The tree is cut short: the checkpoint holds more files than are listed.</p>}
      </>
    );
  const node = tree.data && selected ? findNode(tree.data, selected) : null;
  return (
    <>
      {notice && (
        <p className={`notice ${notice.ok ? 'ok' : 'error'}`} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
      <div className="results-files">
        <nav className="results-tree" aria-label={`Files of ${id}`}>
          {browser}
        </nav>
        <div className="results-viewer">
          {selected ? (
            <FileView key={selected} id={id} path={selected} size={node?.size} report={report} saved={refresh} deleted={() => open('')} />
          ) : (
            <p className="state">Choose a file to read it, edit it or delete it.</p>
          )}
        </div>
      </div>
      <div className="cards">
        <NewFile id={id} report={report} created={open} />
        <Upload id={id} activeId={activeId} reloadActive={reloadActive} report={report} uploaded={refresh} />
      </div>
    </>
  );
}
