import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { freePort, startSshd } from '../support/sshd.ts';
import { fillWorkspace } from './workspace.ts';

// each test starts a server and drives a browser; axe-core on the whole page takes a while on a busy machine
setDefaultTimeout(180_000);

const noBrowser = lacks('chromium');
const noSshd = noBrowser || lacks('sshd');

const SECTIONS = ['Models', 'API keys', 'Memory', 'Slurm', 'Container', 'SSH', 'Profiles', 'Review', 'Health'];
/**
 * Sections checked with axe-core (slow: it reads the whole page): one of each kind of content.
 * Slurm, Container, SSH and Profiles are made of the same forms, tables, lists and notices.
 */
const AXE_WIDE = new Set(['Models', 'API keys', 'Memory', 'Review', 'Health']);
const AXE_NARROW = new Set(['Models']);

let browser: Browser;
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
    // a memory server a test started is stopped even when the test failed half-way
    await ws?.viz.post('/api/memory/stop-local');
    await ws?.close();
    ws = null;
  });
});

/** The settings page of a fresh workspace whose memory server would be on a free port, where nothing answers. */
async function settingsPage(section = '', size = WIDE): Promise<Page> {
  ws = await serveWorkspace(fillWorkspace, { MEMBACKEND_BASE_URL: `http://127.0.0.1:${await freePort()}` });
  tab = await openTab(browser, ws.viz.base, `#/settings${section ? `/${section}` : ''}`, size);
  await tab.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return tab.page;
}

const settingsFile = () => join(ws?.dir ?? '', 'workspace', 'settings.json');
const form = (page: Page, title: string) => page.locator('form.settings-form').filter({ has: page.getByRole('heading', { name: title }) });

describe.skipIf(noBrowser)('the Settings page', () => {
  test('each section is a tab with its own address; a deep link opens it and a reload keeps it', async () => {
    const page = await settingsPage('keys');
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('API keys');
    await page.getByRole('tab', { name: 'Profiles' }).click();
    await page.getByRole('heading', { name: 'hpc' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/settings/profiles');
    await page.reload();
    await page.getByRole('heading', { name: 'hpc' }).waitFor();
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Profiles');
  });

  test('saving settings writes settings.json, the answer is shown, and a reload shows the saved values', async () => {
    const page = await settingsPage('models');
    const backend = form(page, 'Model backend');
    await backend.getByLabel('Run model').fill('llama-test:7b');
    await backend.getByLabel('Temperature').fill('0.3');
    await backend.getByRole('button', { name: 'Save' }).click();
    expect(await backend.locator('.notice.ok').textContent()).toBe('Saved to settings.json: Run model = llama-test:7b, Temperature = 0.3.');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({ llm_model: 'llama-test:7b', temperature: 0.3 });
    const phases = form(page, 'Models per phase');
    await phases.getByLabel('Paper writing').fill('paper-model:1b');
    await phases.getByLabel('Reproduction: judge').fill('judge-model:2b');
    await phases.getByRole('button', { name: 'Save' }).click();
    await phases.locator('.notice.ok').waitFor();
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({ model_paper: 'paper-model:1b', ors: { judge_model: 'judge-model:2b' } });
    await page.reload();
    expect(await form(page, 'Model backend').getByLabel('Run model').inputValue()).toBe('llama-test:7b');
    expect(await form(page, 'Model backend').getByLabel('Temperature').inputValue()).toBe('0.3');
    expect(await form(page, 'Models per phase').getByLabel('Reproduction: judge').inputValue()).toBe('judge-model:2b');
    expect(await page.locator(`#${await form(page, 'Model backend').getByLabel('Run model').getAttribute('aria-describedby')}`.replaceAll(':', '\\:')).textContent()).toBe('saved in settings.json');
  });

  test("a bad value shows the API's error, and neither settings.json nor the other entries change", async () => {
    const page = await settingsPage('models');
    const backend = form(page, 'Model backend');
    await backend.getByLabel('Run model').fill('kept-as-typed');
    await backend.getByLabel('Temperature').fill('5');
    await backend.getByRole('button', { name: 'Save' }).click();
    const answer = await ws?.viz.post('/api/settings', { llm_model: 'kept-as-typed', temperature: 5 });
    expect(answer?.status).toBe(400);
    expect(await backend.getByRole('alert').textContent()).toBe(answer?.body.error);
    expect(answer?.body.error).toContain('temperature');
    expect(existsSync(settingsFile())).toBe(false);
    expect(await backend.getByLabel('Run model').inputValue()).toBe('kept-as-typed');
    expect(await backend.getByLabel('Temperature').inputValue()).toBe('5');
    refusals = ['400 POST /api/settings'];
  });

  test('an API key is written to .env, its name shows as set, and its value never appears in the page', async () => {
    const page = await settingsPage('keys');
    const secret = 'sk-browser-test-9f8e7d6c5b4a';
    const input = page.getByLabel('New value of SVC_SCHOLAR_A_API_KEY');
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill(secret);
    await page.getByRole('button', { name: 'Save keys' }).click();
    const dotenv = join(ws?.dir ?? '', '.env');
    expect(await page.locator('.notice.ok').textContent()).toBe(`Saved SVC_SCHOLAR_A_API_KEY to ${dotenv}.`);
    expect(readFileSync(dotenv, 'utf8')).toContain(`SVC_SCHOLAR_A_API_KEY=${secret}`);
    await page.locator('tr[data-name="SVC_SCHOLAR_A_API_KEY"] .settings-status').filter({ hasText: 'set (' }).waitFor();
    expect(await input.inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.locator('tr[data-name="SVC_SCHOLAR_A_API_KEY"]').waitFor();
    expect(await page.locator('tr[data-name="SVC_SCHOLAR_A_API_KEY"] .settings-status').textContent()).toStartWith('set (');
    expect(await page.content()).not.toContain(secret);
  });

  test('a variable svc does not read and is no credential is refused with the API error', async () => {
    const page = await settingsPage('keys');
    await page.getByLabel('Variable name').fill('LD_PRELOAD');
    await page.getByLabel('Value', { exact: true }).fill('/tmp/x.so');
    await page.getByRole('button', { name: 'Save variable' }).click();
    expect(await page.getByRole('alert').textContent()).toStartWith('LD_PRELOAD is not a variable svc reads or a credential');
    expect(existsSync(join(ws?.dir ?? '', '.env'))).toBe(false);
    refusals = ['400 POST /api/env-keys'];
  });

  test('the memory backend shows as down; the local server starts, shows up, and stops again', async () => {
    const page = await settingsPage('memory');
    const status = page.getByTestId('memory-status');
    expect(await status.textContent()).toStartWith('Down: memory server');
    expect(await status.textContent()).toContain('not reachable');
    await page.getByRole('button', { name: 'Start local server' }).click();
    await page.locator('.notice.ok').filter({ hasText: 'started (auto) at' }).waitFor({ timeout: 60_000 });
    await status.filter({ hasText: 'Up: the memory server at' }).waitFor();
    await page.getByRole('button', { name: 'Stop local server' }).click();
    await page.locator('.notice.ok').filter({ hasText: 'stopped the auto memory server' }).waitFor({ timeout: 30_000 });
    await status.filter({ hasText: 'Down:' }).waitFor();
  });

  test('a few-shot example is uploaded and deleted, changing the files on disk; a bad review shows the error', async () => {
    const page = await settingsPage('review');
    const dir = join(ws?.dir ?? '', 'reviewer_rubrics', 'fewshot_examples', 'neurips');
    await page.getByText('No few-shot examples for neurips yet').waitFor();
    await page.getByLabel('Example id').fill('browser_example');
    await page.getByLabel(/^Review \(JSON/).fill('{"overall": 60}');
    await page.getByRole('button', { name: 'Upload example' }).click();
    expect(await page.locator('.settings-upload [role="alert"]').textContent()).toBe('review.overall: 60 is outside the scale [1, 10]');
    expect(existsSync(join(dir, 'browser_example.json'))).toBe(false);
    await page.getByLabel(/^Review \(JSON/).fill('{"overall": 6, "originality": 3, "summary": "A fine paper."}');
    await page.getByLabel('Paper excerpt (optional)').fill('We study sorting.');
    await page.getByRole('button', { name: 'Upload example' }).click();
    expect(await page.locator('.notice.ok').textContent()).toBe('Uploaded browser_example: browser_example.json, browser_example.txt.');
    await page.locator('li[data-example="browser_example"]').waitFor();
    expect(JSON.parse(readFileSync(join(dir, 'browser_example.json'), 'utf8'))).toMatchObject({ overall: 6, originality: 3 });
    expect(readFileSync(join(dir, 'browser_example.txt'), 'utf8')).toBe('We study sorting.');
    await page.getByRole('button', { name: 'Delete browser_example' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.locator('li[data-example="browser_example"]').waitFor({ state: 'detached' });
    expect(existsSync(join(dir, 'browser_example.json'))).toBe(false);
    expect(existsSync(join(dir, 'browser_example.txt'))).toBe(false);
    refusals = ['400 POST /api/fewshot/neurips/upload'];
  });

  test('with SVC_GUI_TOKEN set, the page sends the token and a save reaches settings.json', async () => {
    ws = await serveWorkspace(fillWorkspace, { SVC_GUI_TOKEN: 'settings-test-token' });
    expect((await ws.viz.get('/api/settings')).status).toBe(401);
    tab = await openTab(browser, ws.viz.base, '#token=settings-test-token');
    const page = tab.page;
    await page.locator('nav').waitFor();
    await page.evaluate("location.hash = '#/settings/ssh'");
    const ssh = form(page, 'SSH login of the cluster');
    await ssh.getByLabel('Host').fill('cluster.example.org');
    await ssh.getByRole('button', { name: 'Save' }).click();
    expect(await ssh.locator('.notice.ok').textContent()).toBe('Saved to settings.json: Host = cluster.example.org.');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({ ssh_host: 'cluster.example.org' });
    expect(await page.getByRole('button', { name: 'Test cluster.example.org' }).isEnabled()).toBe(true);
  });

  test.skipIf(noSshd)('the SSH login is saved and tested against a real server: a known key logs in, an unknown one is refused', async () => {
    const sshd = await startSshd();
    try {
      const page = await settingsPage('ssh');
      const ssh = form(page, 'SSH login of the cluster');
      const login = async (key: string) => {
        await ssh.getByLabel('Key file').fill(key);
        await ssh.getByRole('button', { name: 'Save' }).click();
        await ssh.locator('.notice.ok').waitFor();
        await page.getByRole('button', { name: `Test ${sshd.host}` }).click();
      };
      await ssh.getByLabel('Host').fill(sshd.host);
      await ssh.getByLabel('Port').fill(String(sshd.port));
      // os.userInfo() can answer "unknown" under Bun; id asks the system
      await ssh.getByLabel('User').fill(Bun.spawnSync(['id', '-un']).stdout.toString().trim());
      await login(sshd.clientKey);
      await page.getByRole('status').filter({ hasText: `Logged in to ${sshd.host} in` }).waitFor({ timeout: 30_000 });
      await login(sshd.strangerKey);
      const refused = page.getByRole('alert').filter({ hasText: `Could not log in to ${sshd.host}: ` });
      await refused.waitFor({ timeout: 30_000 });
    } finally {
      await sshd.stop();
    }
  });

  test("the Health section shows the doctor's table: each row's status, a fix below what does not work, the verdict", async () => {
    const page = await settingsPage('health');
    const verdict = page.getByTestId('doctor-verdict');
    await verdict.waitFor();
    const report = await ws?.viz.get('/api/doctor');
    expect(report?.status).toBe(200);
    const needed = report?.body.rows.filter((r: { needed: boolean; status: string }) => r.needed && r.status === 'fail') ?? [];
    expect(await verdict.textContent()).toBe(report?.body.ok ? 'Ready: everything the workflow needs works.' : `Not ready: ${needed.map((r: { area: string; item: string }) => `${r.area} ${r.item}`).join(', ')}.`);
    expect(await page.locator('table.settings-health tbody tr').count()).toBe(report?.body.rows.length);
    // nothing answers at the memory server's address: a warning, with the fix below it
    const memory = page.locator('tr[data-area="memory"][data-item="server"]');
    expect(await memory.locator('.status').textContent()).toBe('warn');
    expect(await memory.locator('.settings-fix').textContent()).toBe('Fix: svc memory start-local keeps one running between runs');
    expect(await page.locator('tr[data-area="disk"][data-item="workspace"] .status').textContent()).toBe('ok');
  });

  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px every section fits the window, with no serious accessibility violation and no error`, { timeout: 300_000 }, async () => {
      const page = await settingsPage('', size);
      const partitions = await ws?.viz.get('/api/slurm/partitions');
      // without a running Slurm the section says so: the one refusal the page expects
      if (partitions && partitions.status >= 400) refusals = [`${partitions.status} GET /api/slurm/partitions`];
      for (const name of SECTIONS) {
        await page.getByRole('tab', { name }).click();
        await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
        expect(await horizontalOverflow(page)).toBe(0);
        if ((size === WIDE ? AXE_WIDE : AXE_NARROW).has(name)) expect(await seriousViolations(page)).toEqual([]);
        if (name === 'Models') await screenshot(page, `settings-${size.width}`);
      }
    });
  }
});
