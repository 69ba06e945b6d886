// Tool servers and the cost ledger: MCP round trip through the run's client pool (against a plain
// pipe echo to a child process), skill server start to first answer (against spawning the same
// binary for --version), and one ledger append with its budget check (against appending the same
// line to a file), each measured in the same run so a noisy machine shifts the baseline too.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { CostLedger, costRecordOf } from '../../src/llm/ledger.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { median, report } from './measure.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const STARTS = Number(process.env.BENCH_ROUNDS ?? 20);
const dir = tempDir('svc-bench-');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir };
writeFileSync(join(dir, 'notes.txt'), 'a line of notes\n'.repeat(20));

/** One line out to `cat` and the same line back: the cheapest request and answer over a pipe. */
async function pipeEcho(n: number): Promise<number[]> {
  const proc = Bun.spawn(['cat'], { stdin: 'pipe', stdout: 'pipe' });
  const reader = proc.stdout.getReader();
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'notes.txt' } } })}\n`;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    proc.stdin.write(line);
    await proc.stdin.flush();
    let got = 0;
    while (got < line.length) got += (await reader.read()).value?.length ?? line.length;
    times.push(performance.now() - t0);
  }
  proc.stdin.end();
  await proc.exited;
  return times;
}

async function poolCalls(n: number): Promise<number[]> {
  const pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
  await pool.call('read_file', { path: 'notes.txt' });
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const out = await pool.call('read_file', { path: 'notes.txt' });
    times.push(performance.now() - t0);
    if ('error' in out) throw new Error(out.error);
  }
  await pool.close();
  return times;
}

async function firstAnswer(): Promise<number> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: SVC, args: ['skill', 'serve', 'coding-skill'], env }));
  await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

function versionSpawn(): number {
  const t0 = performance.now();
  Bun.spawnSync([SVC, '--version'], { env, stdout: 'ignore' });
  return performance.now() - t0;
}

/** Per call: the ledger's budget check and append (trace line, summary rewritten), against a bare append. */
function ledgerAppends(n: number): { ledger: number[]; bare: number[] } {
  const ckpt = join(dir, 'ledger');
  mkdirSync(ckpt, { recursive: true });
  const ledger = new CostLedger(ckpt, 1e9);
  const record = () => costRecordOf({ role: 'bfts', meta: { phase: 'bfts', skill: 'coding-skill' }, model: 'gpt-4o-mini', backend: 'providera', usage: { promptTokens: 1200, completionTokens: 300, totalTokens: 1500 }, price: { costUsd: 0.00036, source: 'genai-prices' }, latencyMs: 850 });
  const bareFile = join(dir, 'bare.jsonl');
  const out = { ledger: [] as number[], bare: [] as number[] };
  for (let i = 0; i < n; i++) {
    const r = record();
    let t0 = performance.now();
    appendFileSync(bareFile, `${JSON.stringify(r)}\n`);
    out.bare.push(performance.now() - t0);
    t0 = performance.now();
    ledger.checkBudget();
    ledger.append(r);
    out.ledger.push(performance.now() - t0);
  }
  return out;
}

const appends = ledgerAppends(CALLS);
console.log(`${CALLS} ledger appends, median`);
report('append the line to a file (baseline)', median(appends.bare), median(appends.bare));
report('ledger: budget check, append, summary', median(appends.ledger), median(appends.bare), 1);

const echo = await pipeEcho(CALLS);
const calls = await poolCalls(CALLS);
console.log(`\n${CALLS} calls each, median`);
report('pipe echo (baseline)', median(echo), median(echo));
report('MCP tools/call read_file via the pool', median(calls), median(echo), 2);

await firstAnswer(); // warm the page cache
const starts: number[] = [];
const spawns: number[] = [];
for (let i = 0; i < STARTS; i++) {
  spawns.push(versionSpawn());
  starts.push(await firstAnswer());
}
console.log(`\n${STARTS} rounds, median`);
report('svc --version spawn (baseline)', median(spawns), median(spawns));
report('skill serve: spawn, initialize, first call', median(starts), median(spawns), 150);
removeDir(dir);
