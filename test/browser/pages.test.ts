import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { fillWorkspace, LIVE_LOG, MEMORY, RUNS } from './workspace.ts';

setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');

/** Every page of the navigation, by its hash route and heading. */
const PAGES = [
  ['experiments', 'Experiments'],
  ['new', 'New experiment'],
  ['monitor', 'Monitor'],
  ['tree', 'Tree'],
  ['results', 'Results'],
  ['workflow', 'Workflow'],
  ['settings', 'Settings'],
  ['benchmark', 'Benchmark'],
  ['memory', 'Memory'],
] as const;


let browser: Browser;
let ws: Workspace;
beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchBrowser();
  ws = await serveWorkspace(fillWorkspace);
});
afterAll(async () => {
  await ws?.close();
  await browser?.close();
});

/** Opens `hash`, waits for the page's heading, runs `check`, and closes the tab with nothing gone wrong. */
async function visit(hash: string, heading: string, size: typeof WIDE, check: (tab: Tab) => Promise<void> = async () => {}): Promise<void> {
  const tab = await openTab(browser, ws.viz.base, hash, size);
  try {
    await tab.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await check(tab);
    expect(tab.errors).toEqual([]);
    expect(tab.failed).toEqual([]);
  } finally {
    await tab.close();
  }
}

describe.skipIf(noBrowser)('every page of the dashboard', () => {
  for (const [id, title] of PAGES) {
    for (const size of [WIDE, NARROW]) {
      test(`${title} at ${size.width} px: renders, fits the window, no serious accessibility violation, no error`, async () => {
        await visit(`#/${id}`, title, size, async ({ page }) => {
          // what loads first has loaded: no page is left saying it is loading
          await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
          expect(await page.locator(`nav a[aria-current="page"]`).textContent()).toBe(title);
          expect(await horizontalOverflow(page)).toBe(0);
          expect(await seriousViolations(page)).toEqual([]);
          // as a first visit finds the page; the page's own tests save it at work under `${id}-${size.width}`
          await screenshot(page, `first-visit-${id}-${size.width}`);
        });
      });
    }
  }

  test('the navigation links every page, and following a link changes the page and the address', async () => {
    await visit('', 'Experiments', WIDE, async ({ page }) => {
      const links = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
      expect(await links.allTextContents()).toEqual(['svc', ...PAGES.map(([, t]) => t)]);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/settings');
      await page.goBack();
      await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    });
  });

  test('a deep link opens its page, and a reload keeps it', async () => {
    await visit(`#/tree/${RUNS.vectorised}/node_00000003`, 'Tree', WIDE, async ({ page }) => {
      await page.reload();
      await page.getByRole('heading', { name: 'Tree', level: 1 }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/tree/${RUNS.vectorised}/node_00000003`);
      // the linked node's panel is open: its heading names the node, its meta line gives the id
      const panel = page.getByRole('region', { name: 'improve: variant 3' });
      await panel.waitFor();
      expect(await panel.locator('.meta').first().textContent()).toContain('node_00000003');
    });
  });

  test('an unknown page says so and links back', async () => {
    await visit('#/nowhere', 'No such page', WIDE, async ({ page }) => {
      await page.getByRole('link', { name: 'Go to the experiments' }).click();
      await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    });
  });

  test('the Monitor page shows the active run and follows its log', async () => {
    await visit('#/monitor', 'Monitor', WIDE, async ({ page }) => {
      const run = page.getByRole('region', { name: 'Run' });
      await run.getByText(RUNS.live).waitFor();
      // the run's own line arrives over the stream: the badge alone says "following" before anything has
      await page.getByRole('log', { name: 'run log' }).getByText(LIVE_LOG).waitFor();
    });
  });

  test("the Memory page shows the active run's entries and access log, says the backend is down, and picks a node", async () => {
    await visit('#/memory', 'Memory', WIDE, async ({ page }) => {
      const entries = page.getByRole('region', { name: 'Entries' });
      await entries.getByText(MEMORY[0]!.text).waitFor();
      await entries.getByText(MEMORY[1]!.text).waitFor();
      expect(await entries.locator('.notice.error').first().textContent()).toContain('is not reachable');
      // where the entries come from is said apart from the error
      expect(await entries.locator('p.meta', { hasText: 'Entries from memory_backup.jsonl.gz.' }).count()).toBe(1);
      expect(await entries.locator('.notice.error').first().textContent()).not.toContain('Entries from');
      // the access log is a request of its own: it may still be loading once the entries show
      await accessRows(page, 2);
      await page.getByLabel(`Node of ${RUNS.live}`).selectOption(MEMORY[1]!.node);
      await entries.getByText(MEMORY[0]!.text).waitFor({ state: 'detached' });
      await entries.getByText(MEMORY[1]!.text).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/memory/${RUNS.live}/${MEMORY[1]!.node}`);
      await accessRows(page, 1);
    });
  });
});

describe.skipIf(noBrowser)('with SVC_GUI_TOKEN set', () => {
  test('the page opened as /#token=... calls the API with the token and drops it from the address', async () => {
    const secured = await serveWorkspace(fillWorkspace, { SVC_GUI_TOKEN: 'browser-test-token' });
    try {
      expect((await secured.viz.get('/api/checkpoints')).status).toBe(401);
      const tab = await openTab(browser, secured.viz.base, '#token=browser-test-token');
      try {
        await tab.page.locator(`tbody tr[data-id="${RUNS.baseline}"]`).waitFor();
        expect(new URL(tab.page.url()).hash).toBe('#/');
        await tab.page.getByRole('link', { name: 'Monitor' }).click();
        await tab.page.getByRole('region', { name: 'Run' }).getByText(RUNS.live).waitFor();
        expect(tab.errors).toEqual([]);
        expect(tab.failed).toEqual([]);
      } finally {
        await tab.close();
      }
    } finally {
      await secured.close();
    }
  });
});

/** Waits until the Access log table has `n` rows; a timeout names how many it has. */
async function accessRows(page: Page, n: number): Promise<void> {
  const rows = page.getByRole('region', { name: 'Access log' }).locator('tbody tr');
  try {
    await page.waitForFunction(`document.querySelectorAll('section[aria-labelledby="access-title"] tbody tr').length === ${n}`, undefined, { timeout: 15_000 });
  } catch (err) {
    throw new Error(`the Access log has ${await rows.count()} rows, not ${n}: ${(err as Error).message}`);
  }
}
