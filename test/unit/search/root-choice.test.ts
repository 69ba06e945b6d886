import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseRootIdea } from '../../../src/search/root-choice.ts';
import { type Answer, type ResponderServer, startResponderServer } from '../../support/model-server-responder.ts';
import { searchContext } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let server: ResponderServer;
let answer: Answer;
beforeEach(() => {
  dir = tempDir('svc-root-');
  answer = '2';
  server = startResponderServer(() => answer);
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

const IDEAS = { gap_analysis: 'g', ideas: [{ title: 'A', overall_score: 0.5 }, { title: 'B' }, { title: 'C', extra: 1 }], primary_metric: 'time' };

function setup(idea: unknown = IDEAS) {
  const run = searchContext(dir, server.url);
  if (idea) writeFileSync(join(run.ctx.checkpointDir, 'idea.json'), JSON.stringify(idea));
  return run;
}

const ideaFile = (ckpt: string) => JSON.parse(readFileSync(join(ckpt, 'idea.json'), 'utf8'));
const decisions = (ckpt: string) => (existsSync(join(ckpt, 'lineage_decisions.jsonl')) ? readFileSync(join(ckpt, 'lineage_decisions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);

test('a chosen idea moves to ideas[0]; the record goes to idea.json and lineage_decisions.jsonl; a second call does nothing', async () => {
  const { ctx } = setup();
  const c = await chooseRootIdea(ctx);
  expect(c?.action).toBe('root_swap');
  expect(c?.selected_index).toBe(2);
  const file = ideaFile(ctx.checkpointDir);
  expect(file.ideas.map((i: { title: string }) => i.title)).toEqual(['C', 'A', 'B']);
  expect(file.ideas[0].extra).toBe(1);
  expect(file.primary_metric).toBe('time');
  expect(file._root_choice).toEqual(JSON.parse(JSON.stringify(c)));
  expect(decisions(ctx.checkpointDir)).toEqual([file._root_choice]);
  expect(file._root_choice.trigger).toBe('root_idea_selection');
  expect(server.requests[0]?.prompt).toBe('orchestrator/root_idea_selector');
  expect(await chooseRootIdea(ctx)).toBeNull();
  expect(server.requests).toHaveLength(1);
  expect(decisions(ctx.checkpointDir)).toHaveLength(1);
});

test('an index out of range, a reply that is no index, or a failed call keeps the first idea (root_keep)', async () => {
  for (const a of ['7', 'the third', { status: 500 }] as Answer[]) {
    removeDir(dir);
    answer = a;
    const { ctx, logs } = setup();
    const c = await chooseRootIdea(ctx);
    expect(c?.action).toBe('root_keep');
    expect(ideaFile(ctx.checkpointDir).ideas[0].title).toBe('A');
    expect(logs.some((l) => l.startsWith('root idea: '))).toBe(true);
  }
});

test('nothing is asked: disabled, one idea, an inherited idea, no idea.json', async () => {
  const cases: [unknown, boolean][] = [[IDEAS, false], [{ ideas: [{ title: 'A' }] }, true], [{ ...IDEAS, _inherited_from: { parent_run_id: 'p', index: 1 } }, true], [null, true]];
  for (const [idea, enabled] of cases) {
    removeDir(dir);
    const { ctx } = setup(idea);
    ctx.workflow.root_idea_selection.enabled = enabled;
    expect(await chooseRootIdea(ctx)).toBeNull();
  }
  expect(server.requests).toHaveLength(0);
});
