import type { ReplyStep } from './model-server.ts';
import { type Call, history, outcome } from './scripted-agent.ts';
import { bareToolName, messagesOf, type OpenAIChatRequest, offeredTool, offersTools, textOf } from './scripted-request.ts';

/**
 * One step of the replicator agent, as a careful engineer would take it: read the bundle's README
 * and RESULTS, write reproduce.sh running the best and baseline programs under code/ with node,
 * run it once, then finish with what it printed. A repository built in a nested submission/
 * directory gets its script there. Decided from the conversation alone, so a recorded run replays.
 */
export function replicatorStep(body: OpenAIChatRequest): ReplyStep {
  const calls = history(body);
  const files = filesOf(body);
  const root = files.some((f) => f.startsWith('submission/')) ? 'submission/' : '';
  const step = messagesOf(body).filter((m) => m.role === 'assistant').length + 1;
  const call = (bare: string, args: Record<string, unknown>): ReplyStep =>
    offersTools(body) ? { toolCalls: [{ id: `call_${step}_${bare}`, name: offeredTool(body, bare), args }] } : finish('the tools were taken away before the script was run', null);
  const done = (name: string) => calls.filter((c) => bareToolName(c.name) === name);

  const docs = ['README.md', 'RESULTS.md'].map((d) => root + d).filter((d) => files.includes(d));
  const unread = docs.find((d) => !done('read_file').some((c) => c.args.path === d));
  if (unread) return call('read_file', { path: unread });

  const programs = programsOf(files, root);
  const script = `${root}reproduce.sh`;
  const writes = done('write_code').filter((c) => c.args.filename === script);
  if (writes.length === 0) return call('write_code', { filename: script, code: reproduceScript(programs) });
  const lastWrite = writes.at(-1) as Call;
  if (!outcome(lastWrite).ok) return finish(`write_code failed: ${outcome(lastWrite).error}`, null);

  const run = calls.slice(calls.lastIndexOf(lastWrite) + 1).find((c) => bareToolName(c.name) === 'run_bash');
  if (!run) return call('run_bash', { command: root ? `cd ${root.slice(0, -1)} && bash reproduce.sh` : 'bash reproduce.sh' });
  const ran = outcome(run);
  return ran.ok ? finish(null, ran.stdout) : finish(`reproduce.sh failed: ${ran.error}`, null);
}

function finish(failure: string | null, printed: string | null): ReplyStep {
  if (failure !== null) return { text: JSON.stringify({ status: 'failed', summary: failure, artifacts: [] }) };
  const summary = `reproduce.sh runs the best and the baseline programs of the bundle with node and prints their comparisons: ${(printed ?? '').trim().replace(/\s+/g, ' ').slice(0, 400)}`;
  return { text: JSON.stringify({ status: 'success', summary, artifacts: ['reproduce.sh'] }) };
}

/** The JavaScript programs of the bundle's best and baseline configurations, relative to the root. */
function programsOf(files: string[], root: string): { label: string; path: string }[] {
  return files
    .filter((f) => f.startsWith(`${root}code/`) && f.endsWith('.js'))
    .map((f) => f.slice(root.length))
    .map((path) => ({ label: path.startsWith('code/best/') ? 'best' : path.startsWith('code/baseline/') ? 'baseline' : 'other', path }))
    .sort((a, b) => (a.label === b.label ? (a.path < b.path ? -1 : 1) : a.label === 'best' ? -1 : b.label === 'best' ? 1 : a.label < b.label ? -1 : 1));
}

function reproduceScript(programs: { label: string; path: string }[]): string {
  const lines = ['#!/usr/bin/env bash', '# Re-runs every configuration of the bundle and prints what each measured.', 'set -euo pipefail', 'cd "$(dirname "$0")"'];
  // each program's own output whole: its summary line and the measurements it reports
  for (const p of programs) lines.push(`echo "== ${p.label} (${p.path})"`, `node ${p.path}`);
  if (programs.length === 0) lines.push('echo "no program found under code/" >&2', 'exit 1');
  return `${lines.join('\n')}\n`;
}

/** The repository's files as the system prompt lists them ("files in it now: a, b, c"). */
function filesOf(body: OpenAIChatRequest): string[] {
  const system = messagesOf(body).find((m) => m.role === 'system');
  const line = /files in it now: (.*)/.exec(textOf(system?.content))?.[1] ?? '';
  return line.replace(/ and \d+ more$/, '').split(', ').map((f) => f.trim()).filter((f) => f !== '' && f !== 'none');
}
