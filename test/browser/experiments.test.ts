import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, NARROW, openTab, serveWorkspace, seriousViolations, type Tab, type Workspace, endTest } from '../support/browser.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks } from '../support/components.ts';
import { fillWorkspace, RUNS } from './workspace.ts';

// each test starts a server and drives a browser
setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');

let browser: Browser;
let ws: Workspace | null = null;
let tab: Tab | null = null;
beforeAll(async () => {
  if (!noBrowser) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
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

/** The ids of the table's rows, top to bottom. */
async function rowIds(page: Page): Promise<string[]> {
  const rows = page.locator('tbody tr');
  await rows.first().waitFor();
  const ids: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) ids.push((await rows.nth(i).getAttribute('data-id')) ?? '');
  return ids;
}

const row = (page: Page, id: string) => page.locator(`tbody tr[data-id="${id}"]`);

async function experiments(fill = fillWorkspace, size?: typeof NARROW): Promise<Page> {
  ws = await serveWorkspace(fill);
  tab = await openTab(browser, ws.viz.base, '#/experiments', size);
  return tab.page;
}

describe.skipIf(noBrowser)('the Experiments page', () => {
  test('lists every checkpoint with its goal, status, nodes, scores, cost and parent mark, newest first', async () => {
    const page = await experiments();
    expect(await rowIds(page)).toEqual([RUNS.live, RUNS.child, RUNS.vectorised, RUNS.baseline]);
    const vectorised = row(page, RUNS.vectorised);
    expect(await vectorised.locator('.goal').textContent()).toBe('Vectorise the sorting kernel.');
    expect(await vectorised.locator('td[data-label="Status"]').textContent()).toBe('done');
    expect(await vectorised.locator('td[data-label="Nodes"]').textContent()).toBe('12');
    expect(await vectorised.locator('td[data-label="Best score"]').textContent()).toBe('0.900');
    expect(await vectorised.locator('td[data-label="Review"]').textContent()).toBe('7.50');
    expect(await vectorised.locator('td[data-label="Reproducibility"]').textContent()).toBe('0.80');
    expect(await vectorised.locator('td[data-label="Cost"]').textContent()).toBe('$1.25');
    expect(await row(page, RUNS.baseline).locator('td[data-label="Reproducibility"]').textContent()).toBe('–');
    expect(await row(page, RUNS.live).locator('td[data-label="Status"]').textContent()).toBe('running');
    expect(await row(page, RUNS.child).locator('.parent').textContent()).toBe(`sub-experiment of ${RUNS.vectorised}`);
    expect(await row(page, RUNS.baseline).locator('.parent').count()).toBe(0);
    // the server selects the newest checkpoint at start
    expect(await row(page, RUNS.live).locator('.badge').textContent()).toBe('active');
  });

  test('sorts by a column, both ways, and filters by text and by status', async () => {
    const page = await experiments();
    const nodes = page.getByRole('button', { name: 'Nodes' });
    await nodes.click();
    expect(await rowIds(page)).toEqual([RUNS.baseline, RUNS.child, RUNS.live, RUNS.vectorised]);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toStartWith('Nodes');
    await nodes.click();
    expect(await rowIds(page)).toEqual([RUNS.vectorised, RUNS.live, RUNS.child, RUNS.baseline]);
    // a missing score sorts last whichever the direction
    await page.getByRole('button', { name: 'Review' }).click();
    expect((await rowIds(page))[0]).toBe(RUNS.vectorised);

    await page.getByLabel('Filter').fill('vectorise');
    expect((await rowIds(page)).sort()).toEqual([RUNS.child, RUNS.vectorised].sort());
    expect(await page.locator('.count').textContent()).toBe('2 of 4 experiments');
    await page.getByLabel('Filter').fill('');
    await page.getByLabel('Status').selectOption('running');
    expect(await rowIds(page)).toEqual([RUNS.live]);
    await page.getByLabel('Filter').fill('no such goal');
    expect(await page.getByText('No experiment matches the filter.').isVisible()).toBe(true);
  });

  test('switch makes a checkpoint the active one, through the API, and says so', async () => {
    const page = await experiments();
    await page.getByRole('button', { name: `Switch to ${RUNS.baseline}` }).click();
    await page.getByText(`Active checkpoint: ${RUNS.baseline}`).waitFor();
    await row(page, RUNS.baseline).locator('.badge').waitFor();
    expect(await page.getByRole('button', { name: `Switch to ${RUNS.baseline}` }).isDisabled()).toBe(true);
    expect((await ws!.viz.get('/api/active-checkpoint')).body.id).toBe(RUNS.baseline);
  });

  test('delete asks first: cancel keeps the checkpoint, confirm deletes it and says so', async () => {
    const page = await experiments();
    const dir = join(ws!.checkpoints, RUNS.baseline);
    await page.getByRole('button', { name: `Delete ${RUNS.baseline}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${RUNS.baseline}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(existsSync(dir)).toBe(true);
    expect(await rowIds(page)).toContain(RUNS.baseline);

    await page.getByRole('button', { name: `Delete ${RUNS.baseline}` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Deleted ${RUNS.baseline}.`).waitFor();
    await row(page, RUNS.baseline).waitFor({ state: 'detached' });
    expect(existsSync(dir)).toBe(false);
    expect(await rowIds(page)).toEqual([RUNS.live, RUNS.child, RUNS.vectorised]);
  });

  test("an action the API refuses shows the API's message and keeps the list", async () => {
    const page = await experiments();
    await rowIds(page);
    // removed behind the page's back: the API answers 404 {error: 'not found'}
    rmSync(join(ws!.checkpoints, RUNS.baseline), { recursive: true });
    refusals = ['404 POST /api/switch-checkpoint'];
    await page.getByRole('button', { name: `Switch to ${RUNS.baseline}` }).click();
    const alert = page.locator('.notice.error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('not found');
    // the list was read again: the checkpoint is gone from it
    await row(page, RUNS.baseline).waitFor({ state: 'detached' });
    expect(await rowIds(page)).toEqual([RUNS.live, RUNS.child, RUNS.vectorised]);
  });

  test('an empty workspace tells how to start a run', async () => {
    const page = await experiments(() => {});
    await page.getByRole('heading', { name: 'No experiments yet' }).waitFor();
    expect(await page.locator('.state.empty').textContent()).toContain('svc run experiment.md');
    expect(await page.locator('table').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a list the API cannot give shows the API's error, and Try again reads it again", async () => {
    const page = await experiments();
    await rowIds(page);
    // the checkpoints directory replaced by a file: listing it fails on the server
    const root = ws!.checkpoints;
    renameSync(root, `${root}.away`);
    writeFileSync(root, 'not a directory');
    refusals = ['500 GET /api/checkpoints'];
    await page.reload();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`cannot read checkpoints directory ${root}`);
    rmSync(root);
    renameSync(`${root}.away`, root);
    await alert.getByRole('button', { name: 'Try again' }).click();
    expect(await rowIds(page)).toEqual([RUNS.live, RUNS.child, RUNS.vectorised, RUNS.baseline]);
  });

  test('a long list draws 50 rows first; each Show more draws 50 more, in the same order', async () => {
    const page = await experiments((root) => {
      for (let i = 0; i < 105; i++) writeCheckpoint(root, { runId: `20261101${String(100000 + i)}_run_${i}`, nodes: 1 });
    });
    await rowIds(page);
    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(await page.locator('.count').textContent()).toBe('105 experiments');
    await page.getByRole('button', { name: 'Show 50 more of 55 not shown' }).click();
    await page.getByRole('button', { name: 'Show 5 more of 5 not shown' }).click();
    await page.locator('tbody tr').nth(104).waitFor();
    const ids = await rowIds(page);
    expect(ids).toHaveLength(105);
    expect(ids.at(-1)).toBe('20261101100000_run_0');
    expect(await page.getByRole('button', { name: /^Show \d+ more/ }).count()).toBe(0);
  });

  test('at 800 px wide the rows are cards, every action in reach, nothing wider than the window', async () => {
    const page = await experiments(fillWorkspace, NARROW);
    await rowIds(page);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    expect(await page.getByRole('button', { name: `Delete ${RUNS.baseline}` }).isVisible()).toBe(true);
  });

  test('keyboard: Tab reaches the navigation, the filter and the row actions; Enter switches', async () => {
    const page = await experiments();
    await rowIds(page);
    const focused = () => page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? ""');
    const seen: string[] = [];
    for (let i = 0; i < 60 && !seen.includes(`Switch to ${RUNS.baseline}`); i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    expect(seen).toContain('Experiments');
    expect(seen).toContain(`Switch to ${RUNS.baseline}`);
    await page.keyboard.press('Enter');
    await page.getByText(`Active checkpoint: ${RUNS.baseline}`).waitFor();
  });
});
