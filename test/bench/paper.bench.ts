// compile_paper through the paper skill's server against a bare `latexmk -pdf` of the same
// sources (a NeurIPS paper with a bibliography: pdfLaTeX, BibTeX and the reruns), each build from
// a fresh copy so neither finds work done; the two alternate within a round, measured in the same
// run so a noisy machine shifts the baseline too. Target: at most 1.1x the bare build. What
// compile_paper adds is pdfinfo for the page count and reading the log (tens of milliseconds).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { writePaper } from '../support/paper.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dir = tempDir('svc-bench-paper-');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
const BODY = Array.from({ length: 6 }, (_, i) => `\\section{Part ${i + 1}}\nSorting \\cite{knuth1998} puts things in order. ${'One comparison at a time, the array takes shape. '.repeat(40)}`).join('\n');
const source = join(dir, 'source');
writePaper(source, 'neurips', { body: BODY });

/** A fresh copy of the sources, for one build. */
function copy(name: string): string {
  const to = join(dir, name);
  rmSync(to, { recursive: true, force: true });
  cpSync(source, to, { recursive: true });
  return to;
}

async function bare(name: string): Promise<number> {
  const at = copy(name);
  const t0 = performance.now();
  const proc = Bun.spawn(['latexmk', '-norc', '-pdf', '-interaction=nonstopmode', '-halt-on-error', 'main.tex'], { cwd: at, env, stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' });
  if ((await proc.exited) !== 0) throw new Error('latexmk failed');
  return performance.now() - t0;
}

const pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
async function tool(name: string): Promise<number> {
  const at = copy(name);
  const t0 = performance.now();
  const out = await pool.call('compile_paper', { tex_dir: at }, { skill: 'paper-skill' });
  if ('error' in out) throw new Error(out.error);
  return performance.now() - t0;
}

// warm the page cache and start the skill server
await bare('warm-bare');
await tool('warm-tool');
const bares: number[] = [];
const tools: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    bares.push(await bare('bare'));
    tools.push(await tool('tool'));
  } else {
    tools.push(await tool('tool'));
    bares.push(await bare('bare'));
  }
}
await pool.close();
console.log(`${ROUNDS} full builds each, median`);
report('latexmk -pdf, bare (baseline)', median(bares), median(bares));
report('compile_paper via the skill server', median(tools), median(bares), Math.round(1.1 * median(bares)));
// a build is the same work every time: the fastest of each is what a loaded machine disturbs least
report('latexmk -pdf, bare, fastest build', Math.min(...bares), Math.min(...bares));
report('compile_paper, fastest build', Math.min(...tools), Math.min(...bares), Math.round(1.1 * Math.min(...bares)));
console.log(`compile_paper / bare latexmk: ${(median(tools) / median(bares)).toFixed(3)}x median, ${(Math.min(...tools) / Math.min(...bares)).toFixed(3)}x fastest (target at most 1.1x)`);
removeDir(dir);
