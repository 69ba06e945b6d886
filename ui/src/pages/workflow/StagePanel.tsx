import { type ReactNode, useEffect, useRef } from 'react';
import type { FlowEdge, FlowNode, Stage } from './types.ts';

type Props = {
  node: FlowNode;
  /** the stage's entry in workflow.yaml */
  stage: Stage | undefined;
  edges: FlowEdge[];
  enabled: boolean;
  onEnabled: (on: boolean) => void;
  onSelect: (id: string) => void;
};

const listName = { bfts_pipeline: 'search (bfts_pipeline)', pipeline: 'after the search (pipeline)' };

/** The chosen stage: what it runs, what it waits for, where it loops back to, and its switch. */
export function StagePanel({ node, stage, edges, enabled, onEnabled, onSelect }: Props) {
  const after = edges.filter((e) => e.kind === 'depends_on' && e.to === node.id).map((e) => e.from);
  const before = edges.filter((e) => e.kind === 'depends_on' && e.from === node.id).map((e) => e.to);
  const loop = edges.find((e) => e.kind === 'loop_back_to' && e.from === node.id)?.to;
  const inputs = Object.entries(stage?.inputs ?? {});
  const panel = useRef<HTMLElement>(null);
  // on a narrow window the panel sits below the graphs: bring the chosen stage's details into view
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [node.id]);
  return (
    <aside ref={panel} className="workflow-panel card" aria-labelledby="workflow-stage-title">
      <h2 id="workflow-stage-title">{node.stage}</h2>
      {stage?.description && <p>{stage.description}</p>}
      <label className="workflow-check">
        <input type="checkbox" checked={enabled} onChange={(e) => onEnabled(e.target.checked)} />
        Stage enabled
      </label>
      <dl className="facts">
        <Fact term="List">{listName[node.list]}</Fact>
        <Fact term="Skill">{node.skill || '–'}</Fact>
        <Fact term="Tool">{node.tool || '–'}</Fact>
        <Fact term="Phase">{[node.phase ?? '–'].flat().join(', ')}</Fact>
        <Fact term="Runs after">
          <StageLinks ids={after} onSelect={onSelect} />
        </Fact>
        <Fact term="Needed by">
          <StageLinks ids={before} onSelect={onSelect} />
        </Fact>
        {loop && (
          <Fact term="Loops back to">
            <StageLinks ids={[loop]} onSelect={onSelect} />
            {stage?.loop_threshold !== undefined && ` when the score is below ${stage.loop_threshold}`}
            {stage?.loop_when_result_key && ` or when ${stage.loop_when_result_key} is set`}
            {` (at most ${stage?.loop_max_iterations ?? 2} times)`}
          </Fact>
        )}
        {stage?.outputs?.file && (
          <Fact term="Writes">
            <code>{stage.outputs.file}</code>
          </Fact>
        )}
        {stage?.skip_if_exists && (
          <Fact term="Skipped if">
            <code>{stage.skip_if_exists}</code> exists
          </Fact>
        )}
      </dl>
      {inputs.length > 0 && (
        <>
          <h3>Inputs</h3>
          <dl className="facts workflow-inputs">
            {inputs.map(([k, v]) => (
              <Fact key={k} term={k}>
                <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
              </Fact>
            ))}
          </dl>
        </>
      )}
    </aside>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function StageLinks({ ids, onSelect }: { ids: string[]; onSelect: (id: string) => void }) {
  if (ids.length === 0) return <>–</>;
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <button type="button" className="workflow-link" onClick={() => onSelect(id)}>
            {id}
          </button>
        </span>
      ))}
    </>
  );
}
