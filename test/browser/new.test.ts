import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO_EXPERIMENT, DEMO_MODEL } from '../../scripts/record-demo.ts';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks } from '../support/components.ts';
import type { ModelServer } from '../support/model-server.ts';
import { CHAT_REPLY, LISTED_MODELS, REFINED_GOAL, serveWizardWorkspace, wizardModelServer } from './new-workspace.ts';

// a test starts a server and drives a browser; the launch test runs a whole search
setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');

let browser: Browser;
let server: ModelServer;
let ws: Workspace | null = null;
let tab: Tab | null = null;
beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchBrowser();
  server = wizardModelServer();
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});
/** The requests a test expects the server to refuse; any other refusal fails it. */
let refusals: string[] = [];
afterEach(async () => {
  const [done, expected] = [tab, refusals];
  tab = null;
  refusals = [];
  await endTest(done, expected, async () => {
    await ws?.close();
    ws = null;
  });
});

async function wizard(size = WIDE): Promise<Page> {
  ws = await serveWizardWorkspace(server);
  tab = await openTab(browser, ws.viz.base, '#/new', size);
  await tab.page.getByRole('heading', { name: 'New experiment', level: 1 }).waitFor();
  return tab.page;
}

const GOAL = '# Sorting\n\n## Research Goal\nFind a sort that needs fewer comparisons on seeded arrays.\n\nMetric: comparisons\n';

/** Opens a step through the step indicator. */
async function openStep(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Wizard steps' }).getByRole('button', { name }).click();
  await page.getByRole('heading', { name: new RegExp(`: ${name}$`), level: 2 }).waitFor();
}

const loaded = (page: Page) => page.waitForFunction('document.querySelectorAll(".state.loading").length === 0', undefined, { timeout: 20_000 });

describe.skipIf(noBrowser)('the New experiment wizard', () => {
  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px every step fits the window, has no serious accessibility violation and no error; Next and Back walk the steps`, async () => {
      const page = await wizard(size);
      await page.getByLabel('Goal (Markdown)').fill(GOAL);
      await page.getByRole('heading', { name: 'Sorting', level: 1 }).waitFor();
      await screenshot(page, `new-${size.width}`);
      const steps = ['Goal', 'Scope', 'Model', 'Resources', 'Files', 'Launch'];
      for (const [i, name] of steps.entries()) {
        await page.getByRole('heading', { name: `Step ${i + 1} of 6: ${name}`, level: 2 }).waitFor();
        expect(await page.locator('.new-steps [aria-current="step"]').textContent()).toBe(`${i + 1} ${name}`);
        await loaded(page);
        expect(await horizontalOverflow(page), name).toBe(0);
        expect(await seriousViolations(page), name).toEqual([]);
        if (i < steps.length - 1) await page.getByRole('button', { name: 'Next' }).click();
      }
      expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
      await page.getByText('No estimate available:').waitFor();
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { name: 'Step 5 of 6: Files', level: 2 }).waitFor();
      // the draft outlives the steps
      await openStep(page, 'Goal');
      expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(GOAL);
    }, 180_000);
  }

  test('lists the models the scripted server holds, and says which model is configured', async () => {
    const page = await wizard();
    await openStep(page, 'Model');
    await page.getByText(`Configured: openai-compatible / ${DEMO_MODEL}`).waitFor();
    await page.getByLabel('Provider').selectOption({ label: 'local model daemon' });
    const models = page.getByRole('group', { name: 'Models of local model daemon' }).getByRole('radio');
    expect(await models.evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))).toEqual(LISTED_MODELS);
    await page.getByRole('radio', { name: 'qwen3:4b' }).check();
    expect(await page.getByRole('combobox', { name: /^Model/ }).inputValue()).toBe('qwen3:4b');
    await page.getByText(`2 models at http://127.0.0.1:${server.port}`).waitFor();
  });

  test('a goal file fills the editor, and the Markdown preview shows it', async () => {
    const page = await wizard();
    await page.getByLabel('Open a Markdown file').setInputFiles({ name: 'goal.md', mimeType: 'text/markdown', buffer: Buffer.from(GOAL) });
    await page.getByRole('region', { name: 'Preview of the goal' }).getByRole('heading', { name: 'Sorting' }).waitFor();
    expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(GOAL);
    expect(await page.getByRole('region', { name: 'Preview of the goal' }).getByText('Metric: comparisons').isVisible()).toBe(true);
  });

  test("an earlier run's goal fills the editor", async () => {
    ws = await serveWizardWorkspace(server);
    const earlier = writeCheckpoint(ws.checkpoints, { runId: '20261101100000_baseline', nodes: 2 });
    writeFileSync(join(earlier, 'experiment.md'), GOAL);
    tab = await openTab(browser, ws.viz.base, '#/new');
    const page = tab.page;
    await page.getByLabel('Start from an earlier run').selectOption('20261101100000_baseline');
    await page.getByRole('button', { name: 'Use its goal' }).click();
    await page.getByRole('region', { name: 'Preview of the goal' }).getByRole('heading', { name: 'Sorting' }).waitFor();
    expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(GOAL);
  });

  test("the goal conversation: the model's answer and proposed goal are shown, and accepting puts the goal in the editor", async () => {
    const page = await wizard();
    await page.getByLabel('Goal (Markdown)').fill(GOAL);
    await page.getByLabel('Message to the model').fill('Make it measurable.');
    const before = server.requests.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(CHAT_REPLY).waitFor();
    // the model saw the goal and the message
    const asked = JSON.stringify(server.requests.slice(before).map((r) => r.body));
    expect(asked).toContain('Find a sort that needs fewer comparisons');
    expect(asked).toContain('Make it measurable.');
    expect(await page.getByRole('heading', { name: 'Fewer comparisons' }).isVisible()).toBe(true);
    // not taken over until accepted
    expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(GOAL);
    await page.getByRole('button', { name: 'Use this goal' }).click();
    expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(REFINED_GOAL);
    expect(await page.getByRole('button', { name: 'Use this goal' }).count()).toBe(0);
  });

  test('the goal conversation shows the API message when there is nothing to refine', async () => {
    const page = await wizard();
    refusals = ['400 POST /api/chat-goal'];
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('give a goal or a message');
  });

  test('provided files are uploaded, listed with their size, and can be removed', async () => {
    const page = await wizard();
    await openStep(page, 'Files');
    await page.getByLabel('Add files').setInputFiles([
      { name: 'data.csv', mimeType: 'text/csv', buffer: Buffer.from('n,comparisons\n10,25\n') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('seed 7') },
    ]);
    const list = page.getByRole('list', { name: 'Provided files' });
    await list.getByText('notes.txt').waitFor();
    expect(await list.getByRole('listitem').allTextContents()).toEqual(['data.csv20 BRemove', 'notes.txt6 BRemove']);
    const staged = join(ws!.dir, 'workspace', 'staging');
    const [id] = readdirSync(staged);
    expect(readFileSync(join(staged, id!, 'uploads', 'data.csv'), 'utf8')).toBe('n,comparisons\n10,25\n');
    await page.getByRole('button', { name: 'Remove notes.txt' }).click();
    await list.getByText('notes.txt').waitFor({ state: 'detached' });
    expect(readdirSync(join(staged, id!, 'uploads'))).toEqual(['data.csv']);
  });

  test('a launch with a bad value shows the API message and keeps everything entered', async () => {
    const page = await wizard();
    await page.getByLabel('Goal (Markdown)').fill(GOAL);
    await openStep(page, 'Scope');
    await page.getByLabel('Max nodes').fill('0');
    await openStep(page, 'Launch');
    refusals = ['400 POST /api/launch'];
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const expected = await ws!.viz.post('/api/launch', { experiment_md: GOAL, max_nodes: 0 });
    expect(expected.status).toBe(400);
    expect(await alert.textContent()).toBe(`The launch was refused: ${expected.body.error}`);
    expect(expected.body.error).toContain('max_nodes');
    expect(new URL(page.url()).hash).toBe('#/new');
    await openStep(page, 'Scope');
    expect(await page.getByLabel('Max nodes').inputValue()).toBe('0');
    await openStep(page, 'Goal');
    expect(await page.getByLabel('Goal (Markdown)').inputValue()).toBe(GOAL);
    expect(readdirSync(ws!.checkpoints)).toEqual([]);
  });

  test("the multi-agent idea engine: its rounds and team size show once it is chosen, the Review names it, and the launch sends them", async () => {
    const page = await wizard();
    await page.getByLabel('Goal (Markdown)').fill(GOAL);
    await openStep(page, 'Scope');
    expect(await page.getByLabel('Team size').count()).toBe(0);
    await page.getByLabel(/Teams of authors from the literature/).check();
    await page.getByLabel('Discussion rounds').fill('2');
    await page.getByLabel('Team size').fill('9');
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      await screenshot(page, `new-scope-ideas-${size.width}`);
      expect(await horizontalOverflow(page)).toBe(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await openStep(page, 'Launch');
    await page.getByText('the multi-agent engine: team size 9, 2 rounds').waitFor();
    // 9 is over the engine's limit: the API's refusal names the field, so the value was sent
    refusals = ['400 POST /api/launch'];
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const expected = await ws!.viz.post('/api/launch', { experiment_md: GOAL, vir_sci_real: true, vir_sci_k: 2, vir_sci_team_size: 9 });
    expect(expected.status).toBe(400);
    expect(await alert.textContent()).toBe(`The launch was refused: ${expected.body.error}`);
    expect(expected.body.error).toContain('vir_sci_team_size must be a whole number from 1 to 8, got 9');
    expect(readdirSync(ws!.checkpoints)).toEqual([]);
  });

  test("with SVC_GUI_TOKEN set, the wizard's calls carry the token: models, the goal conversation and an upload", async () => {
    ws = await serveWizardWorkspace(server, { SVC_GUI_TOKEN: 'wizard-test-token' });
    expect((await ws.viz.get('/api/models')).status).toBe(401);
    tab = await openTab(browser, ws.viz.base, '#token=wizard-test-token');
    const page = tab.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'New experiment' }).click();
    await page.getByLabel('Goal (Markdown)').fill(GOAL);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(CHAT_REPLY).waitFor();
    await openStep(page, 'Model');
    await page.getByLabel('Provider').selectOption({ label: 'local model daemon' });
    await page.getByRole('radio', { name: 'qwen3:4b' }).waitFor();
    await openStep(page, 'Files');
    await page.getByLabel('Add files').setInputFiles({ name: 'data.csv', mimeType: 'text/csv', buffer: Buffer.from('1\n') });
    await page.getByRole('list', { name: 'Provided files' }).getByText('data.csv').waitFor();
  });

  test.skipIf(lacks('slurm'))("the Slurm executor offers the real cluster's partitions", async () => {
    const page = await wizard();
    const real = await ws!.viz.get('/api/slurm/partitions');
    expect(real.status).toBe(200);
    await openStep(page, 'Resources');
    await page.getByLabel('Executor').selectOption('slurm');
    const options = page.getByLabel('Partition').locator('option');
    await options.nth(1).waitFor({ state: 'attached' });
    const values = await options.evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    expect(values).toEqual(['', ...real.body.partitions.map((p: { name: string }) => p.name)]);
  });

  test('a launch with the smallest scope and a provided file opens Monitor, where the run is followed to its end', async () => {
    const page = await wizard();
    await page.getByLabel('Goal (Markdown)').fill(readFileSync(DEMO_EXPERIMENT, 'utf8'));
    await openStep(page, 'Scope');
    for (const field of ['Max nodes', 'Max depth', 'Workers']) await page.getByLabel(field).fill('1');
    await openStep(page, 'Model');
    await page.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible server' });
    await page.getByRole('combobox', { name: /^Model/ }).fill(DEMO_MODEL);
    await openStep(page, 'Files');
    await page.getByLabel('Add files').setInputFiles({ name: 'seeds.txt', mimeType: 'text/plain', buffer: Buffer.from('7\n') });
    await page.getByRole('list', { name: 'Provided files' }).getByText('seeds.txt').waitFor();
    await openStep(page, 'Launch');
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByRole('heading', { name: 'Monitor', level: 1 }).waitFor();
    // the checkpoints directory also holds the dashboard's index of them
    const [runId] = readdirSync(ws!.checkpoints).filter((name) => /^\d+_/.test(name));
    expect(new URL(page.url()).hash).toBe(`#/monitor/${runId}`);
    const ckpt = join(ws!.checkpoints, runId!);
    expect(readFileSync(join(ckpt, 'uploads', 'seeds.txt'), 'utf8')).toBe('7\n');
    expect(JSON.parse(readFileSync(join(ckpt, 'launch_config.json'), 'utf8'))).toMatchObject({ max_nodes: 1, max_depth: 1, parallel: 1, llm_model: DEMO_MODEL, llm_provider: 'openai-compatible' });
    // the launch took the staged files over
    expect(readdirSync(join(ws!.dir, 'workspace', 'staging'))).toEqual([]);
    // the run goes on in its own process; Monitor shows the active run
    const header = page.locator('.monitor-header');
    await header.locator('.monitor-run', { hasText: runId! }).waitFor();
    let state: any;
    for (let i = 0; i < 1200; i++) {
      state = (await ws!.viz.get('/state')).body;
      if (state.exit_code !== null && !state.is_running) break;
      await Bun.sleep(100);
    }
    expect(state).toMatchObject({ exit_code: 0, is_running: false, nodes: { total: 1, completed: 1, failed: 0 } });
    // the header says how it ended, as /state does
    await header.locator(`.status-${state.status}`).waitFor({ timeout: 15_000 });
  }, 240_000);
});
