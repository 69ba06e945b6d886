import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { href, type Route } from '../../route.ts';
import type { ActiveCheckpoint } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { treeSummaryPath } from './paths.ts';
import { WithRun } from '../../components/WithRun.tsx';
import { layoutTree, type TreeLayout } from './layout.ts';
import { TreeCanvas } from './TreeCanvas.tsx';
import type { TreeSummary } from './types.ts';
import './tree.css';

// the panel's tabs bring the code editor and the Markdown renderer: fetched when a node is first picked, not before the tree is drawn
const NodePanel = lazy(async () => ({ default: (await import('./NodePanel.tsx')).NodePanel }));

/** How often a running search's tree is read again. */
const LIVE_REFRESH_MS = 10_000;

/**
 * The search tree of a run: `#/tree/<run>/<node>`; without a run, the active checkpoint's. The
 * tree drawn, and the selected node's report, trace, code, memory and metrics.
 */
export function TreePage({ route }: { route: Route }) {
  const [givenRun, node = ''] = route.parts;
  return (
    <section className="page tree-page">
      <h1>Tree</h1>
      {givenRun ? <RunTree key={givenRun} run={givenRun} node={node} /> : <ActiveRunTree node={node} />}
    </section>
  );
}

/** The active checkpoint's tree: asked for only when the address names no run. */
function ActiveRunTree({ node }: { node: string }) {
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint');
  return (
    <WithRun
      given={undefined}
      active={active}
      none={<>No checkpoint is active: switch to one on <a href={href('experiments')}>Experiments</a>, or open a run's tree from there.</>}
    >
      {(run) => <RunTree key={run} run={run} node={node} />}
    </WithRun>
  );
}

type Laid = { layout: TreeLayout; error: null } | { layout: null; error: string };

function RunTree({ run, node }: { run: string; node: string }) {
  const [live, setLive] = useState(false);
  const summary = useApi<TreeSummary>(treeSummaryPath(run), live ? { every: LIVE_REFRESH_MS } : {});
  const data = summary.data;
  if (data && (data.status === 'running') !== live) setLive(data.status === 'running');
  const laid = useMemo((): Laid | null => {
    if (!data) return null;
    try {
      return { layout: layoutTree(data.nodes_list ?? [], data.best?.id ?? null), error: null };
    } catch (err) {
      return { layout: null, error: `the tree file's parent links do not form a tree: ${(err as Error).message}` };
    }
  }, [data]);
  const [tab, setTab] = useState('report');
  const select = useCallback((id: string) => (location.hash = href('tree', run, id)), [run]);

  if (summary.error && !data) return <ErrorMessage message={summary.error} retry={summary.reload} />;
  if (!data || !laid) return <Loading what={`the tree of ${run}`} />;
  const problems = [...data.problems, ...(laid.error ? [laid.error] : [])];
  const notices = (
    <>
      {summary.error && <ErrorMessage message={summary.error} retry={summary.reload} />}
      {problems.map((p) => (
        <p key={p} className="notice error">
          {p}
        </p>
      ))}
    </>
  );
  if (!laid.layout) return notices;
  const layout = laid.layout;
  if (layout.nodes.length === 0)
    return (
      <>
        {notices}
        <Empty title="No nodes yet">
          <p>{data.status === 'running' ? 'The search has not expanded a node yet; this page reads the tree again every few seconds.' : `The run ${run} recorded no node in its tree file.`}</p>
        </Empty>
      </>
    );
  const picked = node ? layout.byId.get(node) : undefined;
  return (
    <>
      {notices}
      <p className="meta tree-run">
        {run} · {layout.nodes.length} nodes · {data.status}
        {data.best ? ` · best ${data.best.id}` : ''}
        {data.goal ? ` · ${data.goal}` : ''}
      </p>
      <TreeCanvas run={run} layout={layout} selected={picked ? picked.id : null} onSelect={select} />
      {node && !picked && <p className="notice error">The run {run} has no node {node}: pick one in the tree.</p>}
      {picked ? (
        <Suspense fallback={<Loading what="the node" />}>
          <NodePanel key={picked.id} run={run} node={picked} hasReport={Object.hasOwn(data.placements, picked.id)} best={data.best?.id === picked.id} tab={tab} onTab={setTab} onSelect={select} />
        </Suspense>
      ) : (
        !node && <p className="state empty">Pick a node in the tree to see its report, trace, code, memory and metrics.</p>
      )}
    </>
  );
}
