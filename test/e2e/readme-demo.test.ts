import { afterAll, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unanchoredNumbers } from '../../src/paper/claims.ts';
import { pdfText } from '../support/paper.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// The README's main command, as written, replays the committed demo cassette: a prompt changed
// without recording the demo again fails here.

const repo = resolve(import.meta.dir, '..', '..');
const home = tempDir('svc-readme-');
afterAll(() => removeDir(home));

test("the README's quick-start run works offline and finds a best node with a measured metric", async () => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const line = /^npm ci && npm run build && (\.\/dist\/svc run .+)$/m.exec(readme)?.[1];
  expect(line).toContain('--replay examples/demo/cassette.jsonl');
  const args = (line ?? '').split(/\s+/).slice(1);
  // the repository is the project root, as for a reader; the workspace goes to a temp directory
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', SVC_ROOT: home };
  const proc = Bun.spawn([SVC, ...args], { cwd: repo, env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code, err).toBe(0);
  expect(out).toMatch(/^nodes: [5-9]\d* \(5 success, 0 failed\)$/m);
  expect(out).toMatch(/^best: node_[0-9a-f]{8} \(score 0\.\d+; comparisons = \d+/m);
  // after the search, the post-search pipeline: each stage says how it ended, the last line sums them
  expect(out).toMatch(/^post-search pipeline: \d+ done$/m);
  // and it ends with the review's scores and the final paper: reviewed, refined, checked against the data
  expect(out).toMatch(/^review: neurips rubric, overall \d+\/10, (accept|reject); originality \d\/4, .*confidence \d\/5$/m);
  const pdf = /^paper: (\S+final_paper\.pdf) \(final\)$/m.exec(out)?.[1] ?? '';
  expect(pdf).not.toBe('');
  // the reproduction of the final paper's results from its published bundle, graded leaf by leaf
  expect(out).toMatch(/^reproduction: ORS (0\.\d{3}|1\.000) over 3 runs \(spread \d\.\d{3}\), negative controls passed$/m);
  const lastLines = out.trim().split('\n').slice(-4);
  expect(lastLines[0]).toMatch(/^post-search pipeline: \d+ done$/);
  expect(lastLines[1]).toMatch(/^review: /);
  expect(lastLines[2]).toMatch(/^reproduction: /);
  expect(lastLines[3]).toMatch(/^paper: /);
  // the related-work search runs offline: the demo's retrieval endpoint is a closed port, so the papers come from the researcher's library.bib, and a note says what failed
  expect(err).toContain('search_related_work: done');
  for (const stage of ['transform_data', 'generate_ear', 'ear_curate', 'ear_publish', 'paper_refine', 'claim_evidence_hard_gate_final', 'finalize_paper']) expect(err).toContain(`${stage}: done`);
  const [run] = readdirSync(join(home, 'workspace', 'checkpoints'));
  const ckpt = join(home, 'workspace', 'checkpoints', run ?? '');
  const json = (name: string) => JSON.parse(readFileSync(join(ckpt, name), 'utf8'));
  // the ideas came from the multi-agent engine, its settings carried by the cassette, its embeddings replayed
  expect(err).toMatch(/^svc: ideas: 3, first: .+ \(multi-agent engine: teams of 2, 2 rounds, 8 papers; idea_teams\.json\)$/m);
  expect(json('idea.json').ma_integration_status).toBe('real_wrap');
  expect(json('idea_teams.json')).toMatchObject({ ran: true, settings: { k: 2, team_size: 2 } });
  // the final gate checked the refined paper, every number of it covered by the data
  const gate = json('evaluation/claim_evidence_hard_gate_final.json');
  expect(gate).toMatchObject({ phase: 'final', status: 'pass', should_block: false, errors: [], tex_path: join(ckpt, 'full_paper_refined.tex') });
  expect(gate.metrics.covered_numbers).toBe(gate.metrics.numbers);
  expect(json('finalize_paper.json')).toMatchObject({ finalized: true, pdf_path: pdf, source_tex: join(ckpt, 'full_paper_refined.tex'), gate: { phase: 'final', status: 'pass' } });
  expect(json('paper_refine.json').sections.filter((s: { accepted: boolean }) => s.accepted).length).toBeGreaterThan(0);
  // the reproduction ran for real: the bundle verified, reproduce.sh built and run, the sort program's comparisons in its log
  expect(json('ors_seed.json')).toMatchObject({ verified: true, skipped: false });
  expect(json('ors_phase1.json')).toMatchObject({ exit_code: 0, timed_out: false, sandbox_kind: 'local' });
  expect(readFileSync(join(ckpt, 'repro_sandbox', 'reproduce.log'), 'utf8')).toContain('30850 comparisons');
  const grade = json('ors_grade.json');
  expect(grade).toMatchObject({ n_runs: 3, degraded: false, leaves_failed_by_judge: 0, negative_control: { passed: true } });
  expect(grade.leaves_graded).toBe(grade.leaves_total);
  expect(json('reproducibility_report.json').ors_score).toBe(grade.ors_score);
  const refs = JSON.parse(readFileSync(join(home, 'workspace', 'checkpoints', run ?? '', 'related_refs.json'), 'utf8'));
  expect(refs.offline).toBeUndefined();
  expect(refs.papers.map((p: { cite_key: string }) => p.cite_key).sort()).toEqual(['ciura2001', 'hibbard1963', 'incerpi1985', 'jiang2000', 'knuth1998', 'pratt1972', 'sedgewick1996', 'shell1959']);
  expect(refs.note).toMatch(/scholar_b \(arXiv\): 127\.0\.0\.1:9 is not reachable .*continuing with the papers of your library/);
  const science = JSON.parse(readFileSync(join(home, 'workspace', 'checkpoints', run ?? '', 'science_data.json'), 'utf8'));
  expect(science.values['best.comparisons'].value).toBe(30850);
  const tree = JSON.parse(readFileSync(join(home, 'workspace', 'checkpoints', run ?? '', 'tree.json'), 'utf8'));
  expect(tree.nodes.length).toBeGreaterThanOrEqual(5);
  // the programs the agent wrote were run here: their measurements are in each node's results.json
  const measured = tree.nodes.filter((n: { id: string }) => {
    const r = JSON.parse(readFileSync(join(home, 'workspace', 'experiments', run ?? '', n.id, 'results.json'), 'utf8'));
    return typeof r.measurements?.comparisons === 'number';
  });
  expect(measured.length).toBe(tree.nodes.length);

  // the paper: real pdfinfo and pdftotext on the PDF the run printed
  const info = Bun.spawnSync(['pdfinfo', pdf], { stdout: 'pipe' }).stdout.toString();
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  expect(pages).toBeGreaterThanOrEqual(2);
  const text = pdfText(pdf);
  expect(text).toContain('Fewer Comparisons');
  expect(text).toContain('Abstract');
  for (const heading of ['Introduction', 'Related Work', 'Method', 'Experiments', 'Conclusion', 'Code availability']) expect(text).toMatch(new RegExp(`^(?:\\d+\\s+)?${heading}$`, 'm'));
  expect(text).toContain('Figure 1');
  // the related work cites every paper of the library, each resolved in the reference list
  expect(text).toMatch(/^References$/m);
  for (const author of ['Donald L. Shell', 'Marcin Ciura', 'Vaughan R. Pratt', 'Donald E. Knuth']) expect(text).toContain(author);
  expect(text).not.toContain('[?]');
  expect(text).toContain('Table 1');
  // the measured best comparison, as the anchors print it
  expect(text).toContain('30,850');
  // the refined paper takes up the review's points
  expect(text.replace(/\s+/g, ' ')).toContain('as the review did');
  expect(text).toContain('1,013,583');
  // every number of the .tex is an anchor or a setting of a configuration
  const tex = readFileSync(pdf.replace(/\.pdf$/, '.tex'), 'utf8');
  const settings = new Set<number>(science.configurations.flatMap((c: { params: Record<string, unknown> }) => Object.values(c.params).filter((v) => typeof v === 'number')));
  const bare = unanchoredNumbers(tex).filter((n) => !settings.has(Number(n.number.replace(/\{,\}|,/g, ''))));
  expect(bare.map((n) => `${n.number} (line ${n.line}: ${n.context})`)).toEqual([]);
  // every number of the PDF's text is a measured value as printed, a setting, or a page or section number
  const values = Object.values(science.values as Record<string, { value: number }>).map((v) => v.value);
  const shown = (n: number) => values.some((v) => Number(Math.abs(v) >= 100 ? Math.round(Math.abs(v)) : Math.abs(v).toPrecision(3)) === n);
  // in the lines of prose: the figures' axis labels are numbers of their own, each a short line
  // up to the code availability statement, whose bundle digest breaks across lines into digit runs
  const prose = text.slice(0, text.search(/^(?:\d+\s+)?Code availability$/m)).split('\n').filter((l) => l.trim().length > 40).join('\n');
  const stray = [...prose.matchAll(/(?<![\w.-])\d[\d,]*(?:\.\d+)?/g)]
    .map((m) => Number(m[0].replace(/,/g, '')))
    .filter((n) => !shown(n) && !settings.has(n) && !(Number.isInteger(n) && n <= Math.max(pages, 10)));
  expect(stray).toEqual([]);
}, 180_000);
