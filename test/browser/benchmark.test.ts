import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARXIV_PDF } from '../support/arxiv-server.ts';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { until } from '../support/until.ts';
import { type BenchServices, benchServices, fillCheckpoints, fillRegistry, PAPERS, SHELL_SORT } from './benchmark-workspace.ts';

// each test starts a server and drives a browser; one runs a benchmark job and makes its report
setDefaultTimeout(300_000);

const noBrowser = lacks('chromium');

let browser: Browser;
let root: string | null = null;
let services: BenchServices | null = null;
let ws: Workspace | null = null;
let tab: Tab | null = null;
/** The requests a test expects the server to refuse; any other refusal fails it. */
let refusals: string[] = [];

beforeAll(async () => {
  if (!noBrowser) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  const [done, expected] = [tab, refusals];
  tab = null;
  refusals = [];
  await endTest(done, expected, async () => {
    await ws?.close();
    ws = null;
    services?.stop();
    services = null;
    if (root) removeDir(root);
    root = null;
  });
});

type Options = { size?: typeof WIDE; shellSort?: boolean; holdJudge?: boolean; silent?: boolean; token?: string };

/** The Benchmark page at `hash`, served over a generated registry with the local arXiv and model servers. */
async function bench(hash: string, opts: Options = {}): Promise<Page> {
  root = tempDir('svc-bench-page-');
  await fillRegistry(root, { shellSort: opts.shellSort });
  services = benchServices(root, { holdJudge: opts.holdJudge, silent: opts.silent });
  ws = await serveWorkspace(fillCheckpoints, { ...services.env, ...(opts.token ? { SVC_GUI_TOKEN: opts.token } : {}) });
  tab = await openTab(browser, ws.viz.base, opts.token ? `#token=${opts.token}` : hash, opts.size);
  // a shared machine under load: waits get room, no time is asserted
  tab.page.setDefaultTimeout(30_000);
  // the token is taken from the address and the route is then the default page's
  if (opts.token) await tab.page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await tab.page.getByRole('heading', { name: 'Benchmark', level: 1 }).waitFor();
  return tab.page;
}

const registry = () => join(root as string, 'registry');
const row = (page: Page, id: string) => page.locator(`tbody tr[data-id="${id}"]`);
const cell = (page: Page, id: string, label: string) => row(page, id).locator(`td[data-label="${label}"]`);

async function rowIds(page: Page): Promise<string[]> {
  await page.locator('tbody tr').first().waitFor();
  return page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
}

/** The page, loaded, fits the window; with `axe`, axe finds nothing serious on it either (slow: not on every view). */
async function fits(page: Page, { axe = true } = {}): Promise<void> {
  await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
  expect(await horizontalOverflow(page)).toBe(0);
  if (axe) expect(await seriousViolations(page)).toEqual([]);
}

describe.skipIf(noBrowser)('the Benchmark page', () => {
  test('lists the papers of the registry with title, id, source and a license badge in words; fits both widths', async () => {
    const page = await bench('#/benchmark/papers');
    expect(await rowIds(page)).toEqual([...PAPERS.withPdf, ...PAPERS.withoutPdf]);
    expect(await page.locator('caption').textContent()).toBe('3 papers');
    expect(await cell(page, 'alpha-2024', 'Title').textContent()).toBe('alpha-2024');
    expect(await cell(page, 'alpha-2024', 'Paper id').textContent()).toBe('alpha-2024');
    expect(await cell(page, 'alpha-2024', 'Source').textContent()).toBe(`local ${join(root as string, 'paper.pdf')}`);
    expect(await cell(page, 'gamma-doi', 'Source').textContent()).toBe('doi 10.5555/gamma-doi');
    const usable = cell(page, 'alpha-2024', 'License').locator('.bench-license');
    expect(await usable.textContent()).toBe('cc-by-4.0 · usable');
    expect(await usable.getAttribute('class')).toContain('bench-license-usable');
    const unknown = cell(page, 'gamma-doi', 'License').locator('.bench-license');
    expect(await unknown.textContent()).toBe('unknown · review needed');
    expect(await unknown.getAttribute('title')).toBe('license unknown — manual review required');
    expect(await page.getByRole('link', { name: 'Edit alpha-2024' }).getAttribute('href')).toBe('#/benchmark/papers/alpha-2024');

    await fits(page, { axe: false });
    await screenshot(page, 'benchmark-1280');
    await page.getByRole('button', { name: 'Import a paper' }).click();
    await fits(page);
    await page.setViewportSize(NARROW);
    await fits(page);
    await screenshot(page, 'benchmark-800');
  });

  test('imports from an arXiv id through the local arXiv server: looked up, imported with its PDF; again is a 409 that shows the paper, and overwrite replaces it', async () => {
    const page = await bench('#/benchmark/papers');
    await page.getByRole('button', { name: 'Import a paper' }).click();
    const form = page.getByRole('form', { name: 'Import a paper' });
    await form.getByLabel('arXiv id', { exact: true }).fill('2404.14193');
    await form.getByRole('button', { name: 'Look up' }).click();
    const preprint = (await ws!.viz.get('/api/bench/arxiv/2404.14193')).body as { title: string; authors: string[] };
    await until('the title filled in', async () => ((await form.getByLabel('Title').inputValue()) === preprint.title ? true : null), 10_000, 50);
    expect(await form.getByLabel('Authors, one a line').inputValue()).toBe(preprint.authors.join('\n'));
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(`Imported 2404.14193: ${preprint.title}.`).waitFor();
    expect(await cell(page, '2404.14193', 'Source').textContent()).toBe('arxiv 2404.14193');
    expect(readFileSync(join(registry(), 'papers', '2404.14193', 'paper.pdf'))).toEqual(ARXIV_PDF);
    expect(services!.arxiv.requests.some((r) => r.startsWith('/pdf/2404.14193'))).toBe(true);

    // the form was emptied; the id alone is enough, the title is looked up on import
    expect(await form.getByLabel('Title').inputValue()).toBe('');
    await form.getByLabel('arXiv id', { exact: true }).fill('2404.14193');
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    refusals = ['409 POST /api/bench/papers/import'];
    const clash = form.locator('.bench-duplicate');
    await clash.waitFor();
    expect(await clash.locator('p').first().textContent()).toContain('paper 2404.14193 is already in the registry');
    expect(await clash.locator('dd').first().textContent()).toBe(preprint.title);
    const before = (await ws!.viz.get('/api/bench/papers')).body.papers.find((p: { paper_id: string }) => p.paper_id === '2404.14193').imported_at;
    await clash.getByRole('button', { name: 'Overwrite 2404.14193' }).click();
    await clash.waitFor({ state: 'detached' });
    await page.getByText(`Imported 2404.14193: ${preprint.title}.`).waitFor();
    const papers = (await ws!.viz.get('/api/bench/papers')).body.papers as { paper_id: string; imported_at: string }[];
    expect(papers.filter((p) => p.paper_id === '2404.14193')).toHaveLength(1);
    expect(papers.find((p) => p.paper_id === '2404.14193')!.imported_at).not.toBe(before);
  });

  test('imports an uploaded PDF: stored in the active checkpoint, copied into the registry; a bad local path shows the API\'s message', async () => {
    const page = await bench('#/benchmark/papers');
    await page.getByRole('button', { name: 'Import a paper' }).click();
    const form = page.getByRole('form', { name: 'Import a paper' });
    await form.getByLabel('Source type').selectOption('upload');
    const pdf = Buffer.from('%PDF-1.4\n% an uploaded paper\n%%EOF\n');
    await form.getByLabel('PDF to upload').setInputFiles({ name: 'my-paper.pdf', mimeType: 'application/pdf', buffer: pdf });
    await form.getByLabel('Title').fill('An uploaded paper');
    await form.getByLabel('License').fill('mit');
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported my-paper: An uploaded paper.').waitFor();
    expect(await cell(page, 'my-paper', 'Source').textContent()).toBe('upload uploads/my-paper.pdf');
    expect(await cell(page, 'my-paper', 'License').textContent()).toBe('mit · usable');
    expect(readFileSync(join(registry(), 'papers', 'my-paper', 'paper.pdf'))).toEqual(pdf);
    expect(existsSync(join(ws!.checkpoints, '20261101120000_bench_uploads', 'uploads', 'my-paper.pdf'))).toBe(true);

    await form.getByLabel('Source type').selectOption('local');
    await form.getByLabel('PDF path on the server').fill('relative/paper.pdf');
    await form.getByLabel('Title').fill('Nowhere');
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    refusals = ['400 POST /api/bench/papers/import'];
    const expected = (await ws!.viz.post('/api/bench/papers/import', { source_type: 'local', source: 'relative/paper.pdf', title: 'Nowhere', license: '', authors: [], venue: '', year: null, artifact_url: '' })).body.error as string;
    expect(expected).toContain('relative/paper.pdf');
    expect(await form.getByRole('alert').textContent()).toBe(expected);
    expect(await rowIds(page)).not.toContain('paper');
  });

  test('edits a paper\'s metadata: paper_id read-only, the change persists and the license is classified again; a bad year shows the API\'s message', async () => {
    const page = await bench('#/benchmark/papers');
    await page.getByRole('link', { name: 'Edit alpha-2024' }).click();
    const form = page.getByRole('form', { name: 'Metadata of alpha-2024' });
    expect(await form.getByLabel('Paper id').inputValue()).toBe('alpha-2024');
    expect(await form.getByLabel('Paper id').getAttribute('readonly')).not.toBeNull();
    await fits(page);

    await form.getByLabel('Year').fill('soon');
    await form.getByRole('button', { name: 'Save' }).click();
    refusals = ['400 POST /api/bench/papers/alpha-2024/metadata'];
    await form.getByRole('alert').waitFor();
    const expected = (await ws!.viz.post('/api/bench/papers/alpha-2024/metadata', { year: 'soon' })).body.error as string;
    expect(await form.getByRole('alert').textContent()).toBe(expected);

    await form.getByLabel('Year').fill('2024');
    await form.getByLabel('Title').fill('Alpha, revised');
    await form.getByLabel('License').fill('cc-by-nc-4.0');
    await form.getByLabel('Authors, one a line').fill('Grace Hopper\nEdsger Dijkstra');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the metadata of alpha-2024.').waitFor();
    expect(new URL(page.url()).hash).toBe('#/benchmark/papers');
    // the list is read again after the save
    await cell(page, 'alpha-2024', 'License').getByText('cc-by-nc-4.0 · non-commercial', { exact: true }).waitFor();
    const saved = (await ws!.viz.get('/api/bench/papers')).body.papers.find((p: { paper_id: string }) => p.paper_id === 'alpha-2024');
    expect(saved).toMatchObject({ title: 'Alpha, revised', year: 2024, license: 'cc-by-nc-4.0', authors: ['Grace Hopper', 'Edsger Dijkstra'], license_assessment: { non_commercial: true, usable: false } });
    await page.reload();
    expect(await cell(page, 'alpha-2024', 'Title').textContent()).toBe('Alpha, revisedGrace Hopper, Edsger Dijkstra');
  });

  test('delete asks first: cancel keeps the paper, confirm removes it and its directory', async () => {
    const page = await bench('#/benchmark/papers');
    const dir = join(registry(), 'papers', 'beta-2025');
    expect(existsSync(dir)).toBe(true);
    await page.getByRole('button', { name: 'Delete beta-2025' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete beta-2025?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await rowIds(page)).toContain('beta-2025');
    expect(existsSync(dir)).toBe(true);

    await page.getByRole('button', { name: 'Delete beta-2025' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted beta-2025.').waitFor();
    await row(page, 'beta-2025').waitFor({ state: 'detached' });
    expect(existsSync(dir)).toBe(false);
    expect(await rowIds(page)).toEqual(['alpha-2024', 'gamma-doi']);
  });

  test('a paper with a running job is not deleted: the 409 message is shown; the jobs list shows the job in its stage', async () => {
    const page = await bench('#/benchmark/papers', { shellSort: true, silent: true });
    const run = await ws!.viz.post('/api/bench/run', { paper_ids: [SHELL_SORT], reproduce_config: { sandbox_kind: 'local' } });
    const id = (run.body.job_ids as string[])[0] as string;
    await until('the job running', async () => ((await ws!.viz.get(`/api/bench/run/${id}`)).body.status === 'running' ? true : null), 30_000, 100);

    await page.getByRole('button', { name: `Delete ${SHELL_SORT}` }).click();
    await page.getByRole('dialog', { name: `Delete ${SHELL_SORT}?` }).getByRole('button', { name: 'Delete' }).click();
    refusals = [`409 POST /api/bench/papers/${SHELL_SORT}/delete`];
    const alert = page.locator('p.notice.error');
    await alert.waitFor();
    const expected = (await ws!.viz.post(`/api/bench/papers/${SHELL_SORT}/delete`)).body.error as string;
    expect(expected).toContain(id);
    expect(await alert.textContent()).toBe(expected);
    expect(await rowIds(page)).toContain(SHELL_SORT);

    await page.getByRole('link', { name: 'Jobs' }).click();
    expect(await rowIds(page)).toEqual([id]);
    expect(await cell(page, id, 'Paper').textContent()).toBe(SHELL_SORT);
    expect(await cell(page, id, 'Stage').textContent()).toBe('rubric');
    expect(await cell(page, id, 'Progress').textContent()).toBe('5%');
    expect(await cell(page, id, 'Status').textContent()).toBe('running');
  });

  test('an unknown job shows the API\'s message, once, and no log', async () => {
    const page = await bench('#/benchmark/jobs/no-such-job');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    refusals = ['404 GET /api/bench/run/no-such-job', '404 GET /api/bench/run/no-such-job/logs'];
    const expected = (await ws!.viz.get('/api/bench/run/no-such-job')).body.error as string;
    await page.getByRole('alert').filter({ hasText: expected }).waitFor();
    await page.getByText('The log stream was refused: the job may not exist.').waitFor();
    expect(await page.locator('.bench-log-state').textContent()).toBe('');
    // no second try unasked: the page's own timers have run for three polls of the job (2 s) once
    // every page has asked for /api/confirmations (every 3 s) three more times, however late they run
    const from = asked.length;
    const confirmations = () => asked.slice(from).filter((p) => p === '/api/confirmations').length;
    await until('three more polls of /api/confirmations', () => confirmations() >= 3, 30_000, 100);
    expect(asked.slice(from).filter((p) => p.startsWith('/api/bench/run/'))).toEqual([]);
    // and from the start (the first request came before the recording began): one answer for the job
    expect(tab!.failed.filter((f) => f === '404 GET /api/bench/run/no-such-job')).toHaveLength(1);
  });

  test('runs a job with the token set: the estimate from the API, the live log over the event stream, the result, the audit report links; every section fits both widths', async () => {
    const token = 'bench-s3cret';
    const page = await bench('#/benchmark/run', { shellSort: true, holdJudge: true, token });
    const auth = { authorization: `Bearer ${token}` };
    await page.getByRole('checkbox', { name: new RegExp(SHELL_SORT) }).check();
    await page.getByLabel('Sandbox').selectOption('local');
    await page.getByLabel('Time limit (seconds)').fill('120');
    await page.getByLabel('Grading runs').fill('1');
    const dry = (await (await ws!.viz.req('/api/bench/run', { headers: auth, json: { paper_ids: [SHELL_SORT], reproduce_config: { sandbox_kind: 'local', time_limit_sec: 120 }, judge_config: { n_runs: 1 }, dry_run: true } })).json()) as { estimated_total_cost_usd: number; estimated_cost: { breakdown: { reproduce: { wall_time_sec: number } } } };
    expect(dry.estimated_cost.breakdown.reproduce.wall_time_sec).toBe(120);
    await page.getByText(`1 paper: 8 min of jobs, $${dry.estimated_total_cost_usd.toFixed(2)} of model calls in all.`).waitFor();
    await fits(page);
    await screenshot(page, 'benchmark-run-1280');

    await page.getByRole('button', { name: 'Start 1 job' }).click();
    await page.waitForURL(/#\/benchmark\/jobs\/[0-9a-f]{32}$/);
    const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop() as string);
    // the judge is held: the lines of the first stages arrive while the job runs
    const log = page.getByRole('log', { name: 'Log lines' });
    await log.getByText(/reproduce_run: local, exit code 0/).waitFor();
    await log.getByText(/grade: the judge grades/).waitFor();
    expect(await page.locator('.bench-status').textContent()).toBe('running');
    expect(await page.locator('.bench-log-state').textContent()).toBe('live');
    expect(await log.locator('div').first().textContent()).toContain(`queued: paper ${SHELL_SORT}`);

    services!.releaseJudge();
    await page.locator('.bench-log-state', { hasText: 'ended: completed' }).waitFor({ timeout: 60_000 });
    await page.locator('.bench-status', { hasText: 'completed' }).waitFor();
    const snapshot = (await (await ws!.viz.req(`/api/bench/run/${id}`, { headers: auth })).json()) as { log_count: number };
    expect(await log.locator('div').count()).toBe(snapshot.log_count);
    const results = (await (await ws!.viz.req(`/api/bench/run/${id}/results`, { headers: auth })).json()) as { ors_score: number; leaves: number; grade: { leaves_passed: number; leaves_total: number } };
    await page.locator('.bench-score').waitFor();
    expect(await page.locator('.bench-score').textContent()).toBe(`ORS score ${results.ors_score.toFixed(3)} · ${results.grade.leaves_passed} of ${results.grade.leaves_total} leaves passed`);
    expect(await page.locator('table.bench-leaves tbody tr').count()).toBe(results.leaves);

    await page.getByRole('button', { name: 'Make the audit report' }).click();
    const html = page.getByRole('link', { name: 'HTML report (en)' });
    await html.waitFor({ timeout: 60_000 });
    const pdf = page.getByRole('link', { name: 'PDF report (en)' });
    for (const [link, type] of [
      [html, 'text/html'],
      [pdf, 'application/pdf'],
    ] as const) {
      const url = (await link.getAttribute('href')) as string;
      expect(url).toEndWith(`?token=${token}`);
      const res = await fetch(ws!.viz.base + url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect((await fetch(ws!.viz.base + url.replace(/\?token=.*$/, ''))).status).toBe(401);
    }

    // axe on the job page at both widths and on the jobs list; every section fits both
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      await fits(page);
      await screenshot(page, `benchmark-job-${size.width}`);
      for (const section of ['Papers', 'Run', 'Jobs']) {
        await page.getByRole('link', { name: section, exact: true }).click();
        await page.locator('.bench-sections a[aria-current="true"]', { hasText: section }).waitFor();
        if (section === 'Jobs') expect(await cell(page, id, 'Status').textContent()).toBe('completed');
        await fits(page, { axe: section === 'Jobs' && size === NARROW });
      }
      await page.getByRole('link', { name: id.slice(0, 12) }).click();
      await page.locator('.bench-score').waitFor();
    }
  });
});
