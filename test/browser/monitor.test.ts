import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import type { Browser, Page } from 'playwright-core';
import { DEMO_EXPERIMENT, DEMO_MODEL } from '../../scripts/record-demo.ts';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { fillMonitorWorkspace, MONITOR_RUNS } from './monitor-workspace.ts';

setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');

let browser: Browser;
beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens `hash` in a new tab, runs `check`, and closes the tab with no error on the page and no request failed but `expectedFailures`. */
async function visit(ws: Workspace, hash: string, size: typeof WIDE, check: (tab: Tab) => Promise<void>, expectedFailures: string[] = []): Promise<void> {
  const tab = await openTab(browser, ws.viz.base, hash, size);
  try {
    await tab.page.getByRole('heading', { name: 'Monitor', level: 1 }).waitFor();
    await check(tab);
    expect(tab.errors).toEqual([]);
    expect(tab.failed).toEqual(expectedFailures);
  } finally {
    await tab.close();
  }
}

const stepStates = (page: Page, list: string) => page.getByRole('list', { name: list }).locator(':scope > li.monitor-step').evaluateAll((lis) => lis.map((li) => [li.querySelector('.monitor-step-name')?.textContent, li.getAttribute('data-state')]));

describe.skipIf(noBrowser)('the Monitor page on generated runs', () => {
  let ws: Workspace;
  let gpuBin: string;
  beforeAll(async () => {
    gpuBin = tempDir('svc-gpu-bin-');
    ws = await serveWorkspace((root) => fillMonitorWorkspace(root, gpuBin), { PATH: `${gpuBin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
  });
  afterAll(async () => {
    await ws?.close();
    removeDir(gpuBin);
  });

  test('the stepper shows the phases of the running run: ideas and search done, the first stage without output in progress', async () => {
    await visit(ws, '#/monitor', WIDE, async ({ page }) => {
      await page.locator('.monitor-header').getByText(MONITOR_RUNS.running).waitFor();
      expect(await page.locator('.monitor-header .status').textContent()).toBe('running');
      expect(await stepStates(page, 'Run phases')).toEqual([
        ['Ideas', 'done'],
        ['Search', 'done'],
      ]);
      const stages = await stepStates(page, 'Pipeline stages');
      expect(stages.slice(0, 3)).toEqual([
        ['search_related_work', 'done'],
        ['transform_data', 'done'],
        ['generate_ear', 'current'],
      ]);
      expect(stages.slice(3).every(([, s]) => s === 'pending' || s === 'unknown')).toBe(true);
      expect(stages.length).toBeGreaterThan(10);
      expect(await page.locator('[aria-current="step"]').textContent()).toContain('generate_ear');
    });
  });

  test('a stopped run: the address selects it, the stepper shows where it halted, the header and the list say stopped', async () => {
    await visit(ws, `#/monitor/${MONITOR_RUNS.stopped}`, WIDE, async ({ page }) => {
      await page.locator('.monitor-header').getByText(MONITOR_RUNS.stopped).waitFor();
      expect(await page.locator('.monitor-header .status').textContent()).toBe('stopped');
      const stages = await stepStates(page, 'Pipeline stages');
      expect(stages[2]).toEqual(['generate_ear', 'halted']);
      const list = (await ws.viz.get('/api/checkpoints')).body as { id: string; status: string }[];
      expect(list.find((c) => c.id === MONITOR_RUNS.stopped)?.status).toBe('stopped');
      // the running run started elsewhere is offered
      await page.getByRole('link', { name: 'Follow it' }).waitFor();
    });
    // back to the running one, for the tests after
    expect((await ws.viz.post('/api/switch-checkpoint', { id: MONITOR_RUNS.running })).status).toBe(200);
  });

  test('the charts render, a canvas each for CPU, memory and the GPU nvidia-smi reports', async () => {
    await visit(ws, '#/monitor', WIDE, async ({ page }) => {
      const machine = page.getByRole('region', { name: 'Machine' });
      await machine.locator('.monitor-chart canvas').nth(2).waitFor();
      expect(await machine.locator('figure.monitor-chart').count()).toBe(3);
      for (let i = 0; i < 3; i++) expect(await machine.locator('figure.monitor-chart').nth(i).locator('canvas').count()).toBeGreaterThan(0);
      expect(await machine.getByRole('img', { name: /^GPU: GPU 0 Test GPU 40GB: 37%/ }).count()).toBe(1);
      expect(await machine.getByRole('img', { name: /^CPU: \d+(\.\d+)?% of \d+ cores/ }).count()).toBe(1);
    });
  });

  test('Stop on a run this dashboard did not start shows the API refusal; Run stage without a stage shows its error, with a stage starts it', async () => {
    await visit(
      ws,
      `#/monitor/${MONITOR_RUNS.stopped}`,
      WIDE,
      async ({ page }) => {
        await page.locator('.monitor-header').getByText(MONITOR_RUNS.stopped).waitFor();
        const controls = page.getByRole('region', { name: 'Control' });
        expect(await controls.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
        await controls.getByRole('button', { name: 'Run stage' }).click();
        expect(await controls.getByRole('alert').textContent()).toContain('stage is required');
        await controls.getByLabel('Stage').selectOption('transform_data');
        await controls.getByRole('button', { name: 'Run stage' }).click();
        await controls.getByRole('status').getByText(/^Started transform_data: process \d+\.$/).waitFor();
      },
      ['400 POST /api/run-stage'],
    );
    // the stage's process goes; the dashboard started it, so the dashboard stops it
    await ws.viz.post('/api/stop');
    expect((await ws.viz.post('/api/switch-checkpoint', { id: MONITOR_RUNS.running })).status).toBe(200);
    await visit(
      ws,
      '#/monitor',
      WIDE,
      async ({ page }) => {
        const controls = page.getByRole('region', { name: 'Control' });
        await controls.getByRole('button', { name: 'Stop' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Stop the run' }).click();
        expect(await controls.getByRole('alert').textContent()).toContain('already ended');
      },
      ['409 POST /api/stop'],
    );
  });

  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px: fits the window, no serious accessibility violation, no error`, async () => {
      await visit(ws, '#/monitor', size, async ({ page }) => {
        await page.getByRole('region', { name: 'Machine' }).locator('canvas').first().waitFor();
        await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `monitor-${size.width}`);
      });
    });
  }
});

describe.skipIf(noBrowser)('the Monitor page on live runs', () => {
  const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 60 }) });
  let ws: Workspace;
  let run: Subprocess | undefined;
  // the demo's settings, live: lineage off, no root choice, no paper search
  const WORKFLOW = 'lineage_decision: {mode: "off"}\nroot_idea_selection: {enabled: false}\nretrieval: {backend: scholar_b, endpoint: "http://127.0.0.1:9"}\n';
  beforeAll(async () => {
    ws = await serveWorkspace((root) => writeFileSync(join(root, '..', '..', 'workflow.yaml'), WORKFLOW), { LLM_API_BASE: `${server.url}/v1` });
  });
  afterAll(async () => {
    run?.kill('SIGKILL');
    await ws?.viz.post('/api/stop');
    await ws?.close();
    server.stop();
  });

  test('a run started in a terminal: offered, followed, its log live without an end until it ends', async () => {
    await visit(ws, '#/monitor', WIDE, async ({ page }) => {
      await page.getByText('No checkpoint is active').waitFor();
      // no nvidia-smi here: the GPU chart gives way to the reason
      const machine = page.getByRole('region', { name: 'Machine' });
      if (Bun.which('nvidia-smi') === null) expect(await machine.locator('.monitor-no-gpu').textContent({ timeout: 15_000 })).toMatch(/^No GPU: \S/);
      else await machine.getByRole('img', { name: /^GPU: / }).waitFor();
      run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT], {
        cwd: ws.dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ws.dir, NO_COLOR: '1', SVC_ROOT: ws.dir, LLM_API_BASE: `${server.url}/v1`, SVC_BACKEND: 'openai-compatible', SVC_MODEL: DEMO_MODEL, SVC_MAX_NODES: '50', SVC_PARALLEL: '1' },
        stdin: 'ignore',
        stdout: 'ignore',
        stderr: 'ignore',
      });
      // the list is read every 10 s: the new run is offered on the next read
      await page.getByRole('link', { name: 'Follow it' }).click({ timeout: 30_000 });
      const ckpt = join(ws.checkpoints, readdirSync(ws.checkpoints).find((n) => /^\d{8,14}_/.test(n)) as string);
      const log = page.getByRole('log', { name: 'run log' });
      await log.getByText(`svc: run ${ckpt}`).waitFor({ timeout: 30_000 });
      await log.getByText(/svc: bfts: node_\S+ success/).first().waitFor({ timeout: 120_000 });
      expect(await log.textContent()).not.toContain('[end of log]');
      expect(await page.getByRole('region', { name: 'Log' }).locator('.badge').textContent()).toBe('following');
      expect(await page.locator('.monitor-header .status').textContent()).toBe('running');
      // Ctrl-C at its terminal
      run?.kill('SIGINT');
      await log.getByText('[end of log]').waitFor({ timeout: 60_000 });
      expect(await log.textContent()).toContain('SIGINT: stopping');
      expect(await page.getByRole('region', { name: 'Log' }).locator('.badge').textContent()).toBe('ended');
      // the header reads /state at its next poll, once the run's process has written its end
      await page.locator('.monitor-header .status', { hasText: 'stopped' }).waitFor({ timeout: 60_000 });
      expect(readFileSync(join(ckpt, readdirSync(ckpt).find((n) => n.startsWith('svc_run_')) as string), 'utf8')).toContain(`svc: run ${ckpt}`);
    });
  }, 300_000);

  test('Stop on a run the dashboard launched: after the confirmation the header says stopped, and the Experiments row within one read of the list; Resume continues it', async () => {
    const launched = await ws.viz.post('/api/launch', { experiment_md: readFileSync(DEMO_EXPERIMENT, 'utf8'), provider: 'openai-compatible', model: DEMO_MODEL, max_nodes: 8, max_depth: 5, workers: 1 });
    expect(launched.status).toBe(200);
    const id = (launched.body.checkpoint_path as string).split('/').pop() as string;
    await visit(ws, '#/monitor', WIDE, async ({ page }) => {
      await page.locator('.monitor-header').getByText(id).waitFor();
      // a node done, so the run has a tree to be stopped in
      await page.getByRole('region', { name: 'Run' }).getByText(/nodes\s*\d+ total, [1-9]\d* completed/).waitFor({ timeout: 120_000 });
      const controls = page.getByRole('region', { name: 'Control' });
      await controls.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Stop the run' }).click();
      await controls.getByRole('status').getByText(/^Stopped process \d+ \(SIGTERM/).waitFor({ timeout: 30_000 });
      await page.locator('.monitor-header .status', { hasText: 'stopped' }).waitFor({ timeout: 5_000 });
      await page.goto(`${ws.viz.base}/#/experiments`);
      await page.locator(`tbody tr[data-id="${id}"]`).getByText('stopped', { exact: true }).waitFor({ timeout: 11_000 });
      // Resume continues it in the same checkpoint
      await page.goto(`${ws.viz.base}/#/monitor`);
      await controls.getByRole('button', { name: 'Resume' }).click();
      await controls.getByRole('status').getByText(/^Resuming the search: process \d+\.$/).waitFor({ timeout: 30_000 });
      await page.locator('.monitor-header .status', { hasText: 'running' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('.monitor-header .monitor-run').textContent()).toBe(id);
    });
  }, 300_000);
});
