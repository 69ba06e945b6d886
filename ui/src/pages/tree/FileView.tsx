import { Code, Diff } from '../../components/Code.tsx';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { BatchEntry, FileBatch } from './types.ts';
import { checkpointApi } from '../../api.ts';

type Where = { run: string; node: string; path: string };

/** One file of a node's work directory, read through the batch route (a missing file is an entry, not a failed request). */
function useNodeFile({ run, node, path }: Where) {
  const answer = useApi<FileBatch>(checkpointApi(run, `/filecontent?node_id=${encodeURIComponent(node)}&path=${encodeURIComponent(path)}`));
  return { ...answer, entry: answer.data?.files[path] };
}

type Text = { text: string } | { problem: string };

function textOf(entry: BatchEntry): Text {
  if ('error' in entry) return { problem: entry.error };
  if (entry.encoding === 'base64') return { problem: `a binary file of ${entry.size} bytes, not shown` };
  return { text: entry.content };
}

/** The node's version of `path`; with a parent, against the parent's version. */
export function FileView({ run, node, path, parent }: Where & { parent: string | null }) {
  const mine = useNodeFile({ run, node, path });
  if (mine.error) return <ErrorMessage message={mine.error} retry={mine.reload} />;
  if (!mine.entry) return <Loading what={path} />;
  const got = textOf(mine.entry);
  if ('problem' in got) return <p className="state empty">{path}: {got.problem}.</p>;
  if (parent === null)
    return (
      <>
        <p className="meta">The root node: no parent to compare with.</p>
        <Code fileName={path} text={got.text} label={`${path} of ${node}`} />
      </>
    );
  return <AgainstParent run={run} node={node} path={path} parent={parent} text={got.text} />;
}

function AgainstParent({ run, node, path, parent, text }: Where & { parent: string; text: string }) {
  const theirs = useNodeFile({ run, node: parent, path });
  if (theirs.error) return <ErrorMessage message={theirs.error} retry={theirs.reload} />;
  if (!theirs.entry) return <Loading what={`${path} of the parent`} />;
  const before = textOf(theirs.entry);
  if ('problem' in before || before.text === text)
    return (
      <>
        <p className="meta">{'problem' in before ? `Not in the parent ${parent} (${before.problem}): new in this node.` : `Unchanged from the parent ${parent}.`}</p>
        <Code fileName={path} text={text} label={`${path} of ${node}`} />
      </>
    );
  return (
    <>
      <p className="meta">Changed from the parent {parent}: its version on the left, this node's on the right.</p>
      <Diff fileName={path} before={before.text} after={text} beforeLabel={`${path} of the parent ${parent}`} afterLabel={`${path} of ${node}`} />
    </>
  );
}
