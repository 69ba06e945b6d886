import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import type { ActiveCheckpoint } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { FlowGraph, FlowLegend } from './FlowGraph.tsx';
import { draftSize, emptyDraft, resetToDefault, saveDraft, type Draft } from './save.ts';
import { SkillsList } from './SkillsList.tsx';
import { StagePanel } from './StagePanel.tsx';
import type { Flow, FlowNode, SkillSummary, WorkflowView } from './types.ts';
import './workflow.css';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/**
 * The workflow of the active checkpoint: its stages as two DAGs with a panel for the chosen
 * stage, the skills and their tools with switches, Save and Reset to default.
 */
export function WorkflowPage() {
  const flow = useApi<Flow>('/api/workflow/flow');
  const view = useApi<WorkflowView>('/api/workflow');
  const skills = useApi<{ skills: SkillSummary[] }>('/api/skills');
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint', { every: 5000 });
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [selected, setSelected] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  // bumped by each save, so that tool lists fetched before it are fetched again
  const [generation, setGeneration] = useState(0);

  const reloadAll = () => {
    flow.reload();
    view.reload();
    skills.reload();
  };
  const run = async (task: () => Promise<string>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, text: await task() });
      setDraft(emptyDraft());
      setGeneration((g) => g + 1);
      reloadAll();
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  const edit = (change: (d: Draft) => void) =>
    setDraft((d) => {
      const next = { stages: new Map(d.stages), skills: new Map(d.skills), tools: new Map(d.tools) };
      change(next);
      return next;
    });
  const stageOn = (n: FlowNode) => draft.stages.get(n.id) ?? n.enabled;
  const setStage = (n: FlowNode, on: boolean) => edit((d) => (on === n.enabled ? d.stages.delete(n.id) : d.stages.set(n.id, on)));
  const skillOn = (s: SkillSummary) => draft.skills.get(s.name) ?? s.enabled;
  const setSkill = (name: string, on: boolean) => {
    const given = skills.data?.skills.find((s) => s.name === name)?.enabled;
    edit((d) => (on === given ? d.skills.delete(name) : d.skills.set(name, on)));
  };

  const error = flow.error ?? view.error;
  const pending = draftSize(draft);
  const node = flow.data?.nodes.find((n) => n.id === selected);
  return (
    <section className="page workflow">
      <h1>Workflow</h1>
      {error && <ErrorMessage message={error} retry={reloadAll} />}
      {!error && (!flow.data || !view.data) && <Loading what="the workflow" />}
      {flow.data && view.data && (
        <>
          <p className="meta">
            Showing {view.data.source === 'bundled' ? 'the bundled default workflow' : <code>{view.data.path}</code>}.{' '}
            {active.data?.id ? (
              <>
                Saving writes the workflow.yaml of the active checkpoint <strong>{active.data.id}</strong>.
              </>
            ) : active.error ? (
              `Which checkpoint a save would write to is not known: ${active.error}`
            ) : active.data ? (
              'No checkpoint is active: there is nowhere to save changes.'
            ) : (
              'Reading which checkpoint is active…'
            )}
          </p>
          <div className="toolbar">
            <button type="button" onClick={() => run(() => saveDraft(draft, flow.data?.edges ?? []))} disabled={busy || pending === 0}>
              Save
            </button>
            <button type="button" onClick={() => setDraft(emptyDraft())} disabled={busy || pending === 0}>
              Discard changes
            </button>
            <button type="button" className="danger" onClick={() => setConfirmReset(true)} disabled={busy}>
              Reset to default
            </button>
            <span className="count" role="status">
              {pending === 0 ? 'No unsaved changes' : `${pending} unsaved change${pending === 1 ? '' : 's'}`}
            </span>
          </div>
          <OutcomeNotice outcome={outcome} />
          <FlowLegend />
          <div className="workflow-layout">
            <div className="workflow-graphs">
              {flow.data.nodes.length === 0 && <p className="state empty">The workflow has no stages.</p>}
              {(['bfts_pipeline', 'pipeline'] as const).map((list) => {
                const nodes = flow.data?.nodes.filter((n) => n.list === list) ?? [];
                if (nodes.length === 0) return null;
                const ids = new Set(nodes.map((n) => n.id));
                const edges = flow.data?.edges.filter((e) => ids.has(e.from)) ?? [];
                return (
                  <FlowGraph
                    key={list}
                    title={list === 'bfts_pipeline' ? 'The search (bfts_pipeline)' : 'After the search (pipeline)'}
                    nodes={nodes}
                    edges={edges}
                    enabled={stageOn}
                    selected={selected}
                    onSelect={setSelected}
                  />
                );
              })}
            </div>
            {node ? (
              <StagePanel
                node={node}
                stage={stageEntry(view.data, node, flow.data.nodes)}
                edges={flow.data.edges}
                enabled={stageOn(node)}
                onEnabled={(on) => setStage(node, on)}
                onSelect={setSelected}
              />
            ) : (
              <aside className="workflow-panel card">
                <h2>Stage</h2>
                <p className="meta">Choose a stage in the graph (click it, or Tab to it and press Enter) to see what it runs.</p>
              </aside>
            )}
          </div>
        </>
      )}
      <section aria-labelledby="workflow-skills-title">
        <h2 id="workflow-skills-title">Skills and tools</h2>
        {skills.error && <ErrorMessage message={skills.error} retry={skills.reload} />}
        {!skills.error && !skills.data && <Loading what="the skills" />}
        {skills.data && skills.data.skills.length === 0 && <p className="state empty">The workflow lists no skills.</p>}
        {skills.data && skills.data.skills.length > 0 && (
          <SkillsList
            key={generation}
            skills={skills.data.skills}
            enabled={skillOn}
            onEnabled={setSkill}
            toolsOff={(name) => draft.tools.get(name)}
            onToolsOff={(name, off) => edit((d) => d.tools.set(name, off))}
          />
        )}
      </section>
      {confirmReset && (
        <ConfirmDialog
          title="Reset to the default workflow?"
          confirm="Reset"
          onCancel={() => setConfirmReset(false)}
          onConfirm={() => {
            setConfirmReset(false);
            void run(resetToDefault);
          }}
        >
          <p>The active checkpoint's workflow.yaml is replaced by the bundled default; its stages, skills and tool switches are lost.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The workflow.yaml entry a node stands for: the flow lists each stage list's entries in order. */
function stageEntry(view: WorkflowView, node: FlowNode, nodes: FlowNode[]) {
  const index = nodes.filter((n) => n.list === node.list).indexOf(node);
  return view.workflow[node.list][index];
}
