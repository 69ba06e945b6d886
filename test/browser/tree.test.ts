import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { blockLine, fillTree, memoryText, whatWasDone } from './tree-workspace.ts';

setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');

/** The run the tests open (the newest, so the active one), and a large older one. */
const RUN = '20261120100000_tree';
const NODES = 40;
const LARGE = '20261110100000_large_tree';
const LARGE_NODES = 1000;
/** writeCheckpoint's ids: the root, then node_00000001... */
const nodeId = (i: number) => (i === 0 ? `node_${RUN}_root` : `node_${i.toString(16).padStart(8, '0')}`);

let browser: Browser;
let ws: Workspace;
let tab: Tab | null = null;
/** The requests a test expects the server to refuse; any other refusal fails it. */
let refusals: string[] = [];
beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchBrowser();
  ws = await serveWorkspace((checkpoints) => {
    fillTree(checkpoints, LARGE, LARGE_NODES);
    fillTree(checkpoints, RUN, NODES);
  });
});
afterAll(async () => {
  await ws?.close();
  await browser?.close();
});
afterEach(async () => {
  const [done, expected] = [tab, refusals];
  tab = null;
  refusals = [];
  await endTest(done, expected);
});

/** The links drawn: one segment (an `M` command) per link, over the edge paths. */
async function edgeCount(page: Page): Promise<number> {
  const ds = await page.locator('svg.tree-svg .tree-edges path').evaluateAll((paths) => paths.map((p) => p.getAttribute('d') ?? ''));
  return ds.reduce((sum, d) => sum + (d.match(/M/g)?.length ?? 0), 0);
}

async function open(hash: string, size = WIDE): Promise<Page> {
  tab = await openTab(browser, ws.viz.base, hash, size);
  await tab.page.getByRole('heading', { name: 'Tree', level: 1 }).waitFor();
  return tab.page;
}

const circles = (page: Page) => page.locator('svg.tree-svg circle.tree-node');
const node = (page: Page, id: string) => page.locator(`svg.tree-svg circle[data-id="${id}"]`);
const panel = (page: Page) => page.locator('section.tree-panel');

/** The scale of the tree's zoom transform. */
async function zoomScale(page: Page): Promise<number> {
  const t = (await page.locator('svg.tree-svg > g').getAttribute('transform')) ?? '';
  return Number(/scale\(([^)]+)\)/.exec(t)?.[1]);
}

async function openTabNamed(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
}

describe.skipIf(noBrowser)('the Tree page', () => {
  test('without a run in the address, draws the active run: one mark per node and per edge, the legend, the best path', async () => {
    const page = await open('#/tree');
    await circles(page).first().waitFor();
    expect(await circles(page).count()).toBe(NODES);
    expect(await edgeCount(page)).toBe(NODES - 1);
    expect(await page.locator('.tree-run').textContent()).toContain(RUN);
    // writeCheckpoint's last node scores highest: it and its ancestors are the best path
    expect(await node(page, nodeId(NODES - 1)).getAttribute('class')).toContain('best');
    expect(await node(page, nodeId(0)).getAttribute('class')).toContain('best');
    expect(await page.locator('.tree-edges path.best').count()).toBeGreaterThan(0);
    const legend = await page.getByRole('list', { name: 'Legend' }).textContent();
    expect(legend).toContain('success');
    expect(legend).toContain('failed');
    expect(await page.getByText('Pick a node in the tree').isVisible()).toBe(true);
  });

  test('a 1,000-node run is drawn whole', async () => {
    const page = await open(`#/tree/${LARGE}`);
    await circles(page).first().waitFor();
    expect(await circles(page).count()).toBe(LARGE_NODES);
    expect(await edgeCount(page)).toBe(LARGE_NODES - 1);
  });

  test('a click on a node opens its panel and puts it in the address; a reload of that address opens it again', async () => {
    const page = await open(`#/tree/${RUN}`);
    await node(page, nodeId(5)).click();
    await panel(page).getByRole('heading', { name: 'improve: variant 5' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tree/${RUN}/${nodeId(5)}`);
    expect(await node(page, nodeId(5)).getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await panel(page).getByRole('heading', { name: 'improve: variant 5' }).waitFor();
    expect(await node(page, nodeId(5)).getAttribute('aria-pressed')).toBe('true');
    // the report tab reads the node's report after the panel opens
    await panel(page).getByText(whatWasDone(5)).waitFor();
  });

  test("each tab shows the node's data: report, trace, code against the parent, memory, metrics", async () => {
    const i = 6;
    const parent = i - 1 - (i % 4); // writeCheckpoint's parent rule
    const page = await open(`#/tree/${RUN}/${nodeId(i)}`);
    const p = panel(page);
    await p.getByText(whatWasDone(i)).waitFor();
    expect(await p.getByText('python main.py').isVisible()).toBe(true);

    await openTabNamed(page, 'Trace');
    await p.getByText('2 tool calls').waitFor();
    expect(await p.locator('.tree-tool').first().textContent()).toBe('run_bash');
    expect(await p.locator('pre.args').first().textContent()).toContain('make run-0');

    await openTabNamed(page, 'Code');
    // the file the node modified is shown first, against its parent's version
    await p.locator('.cm-mergeView').waitFor();
    expect(await p.getByRole('button', { name: 'main.py' }).getAttribute('aria-pressed')).toBe('true');
    expect(await p.getByText(`Changed from the parent ${nodeId(parent)}`).isVisible()).toBe(true);
    expect(await p.locator('.cm-deletedChunk, .cm-changedLine').first().isVisible()).toBe(true);
    expect(await p.locator('.cm-merge-a').textContent()).toContain(blockLine(parent));
    expect(await p.locator('.cm-merge-b').textContent()).toContain(blockLine(i));
    await p.getByRole('button', { name: 'helper.py' }).click();
    await p.getByText(`Unchanged from the parent ${nodeId(parent)}.`).waitFor();
    expect(await p.locator('.cm-content').textContent()).toContain('def clamp');

    await openTabNamed(page, 'Memory');
    await p.getByText(memoryText(i)).waitFor();
    expect(await p.getByText(memoryText(i - 1)).count()).toBe(0);

    await openTabNamed(page, 'Metrics');
    expect(await p.locator('tr', { hasText: 'throughput' }).locator('td').textContent()).toBe(String(100 + i));
    expect(await p.locator('tr', { hasText: '_scientific_score' }).count()).toBe(1);
  });

  test('a failed node says it has no metrics; the root says it has no parent to compare with', async () => {
    const page = await open(`#/tree/${RUN}/${nodeId(3)}`);
    await openTabNamed(page, 'Metrics');
    await panel(page).getByRole('heading', { name: 'No metrics' }).waitFor();
    await node(page, nodeId(0)).click();
    await panel(page).getByRole('heading', { name: 'improve: variant 0' }).waitFor();
    await openTabNamed(page, 'Code');
    await panel(page).getByText('The root node: no parent to compare with.').waitFor();
  });

  test('a node without a report says so, without asking for it', async () => {
    const id = nodeId(9);
    rmSync(join(ws.dir, 'workspace', 'experiments', RUN, id, 'node_report.json'));
    const page = await open(`#/tree/${RUN}/${id}`);
    await panel(page).getByRole('heading', { name: 'No report' }).waitFor();
    expect(await panel(page).getByText('This node has no readable node_report.json in its work directory').isVisible()).toBe(true);
    // what the tree file says is still shown
    await panel(page).getByText('node 9').waitFor();
  });

  test('colour by score changes the fills, and the legend shows the score range', async () => {
    const page = await open(`#/tree/${RUN}`);
    await circles(page).first().waitFor();
    const fills = () => circles(page).evaluateAll((cs) => cs.map((c) => c.getAttribute('fill')));
    const byStatus = await fills();
    await page.getByRole('radio', { name: 'score' }).check();
    await page.getByText('no score').waitFor();
    const byScore = await fills();
    expect(byScore).not.toEqual(byStatus);
    // scored nodes differ from one another; a failed node (no score) is the grey of "no score"
    expect(new Set(byScore).size).toBeGreaterThan(10);
    expect(byScore[3]).toBe(byScore[10]);
    expect(await page.getByRole('list', { name: 'Legend' }).textContent()).toContain('0.200');
  });

  test('zoom in, zoom out and fit are buttons that change the view', async () => {
    const page = await open(`#/tree/${RUN}`);
    await circles(page).first().waitFor();
    const fitted = await zoomScale(page);
    expect(fitted).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await zoomScale(page)).toBeCloseTo(fitted * 1.5, 5);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect(await zoomScale(page)).toBeCloseTo(fitted / 1.5, 5);
    await page.getByRole('button', { name: 'Fit' }).click();
    expect(await zoomScale(page)).toBeCloseTo(fitted, 5);
  });

  test('nodes are reached by keyboard: Tab to the tree, arrows move, and the address follows', async () => {
    const page = await open(`#/tree/${RUN}/${nodeId(6)}`);
    await panel(page).getByText(whatWasDone(6)).waitFor();
    await node(page, nodeId(6)).focus();
    await page.keyboard.press('ArrowLeft');
    // writeCheckpoint hangs node 6 under node 3
    await panel(page).getByText(whatWasDone(3)).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tree/${RUN}/${nodeId(3)}`);
    expect(await page.evaluate('document.activeElement.getAttribute("data-id")')).toBe(nodeId(3));
    await page.keyboard.press('ArrowRight');
    await panel(page).getByText(whatWasDone(4)).waitFor();
    await page.keyboard.press('Home');
    await panel(page).getByRole('heading', { name: 'improve: variant 0' }).waitFor();
    // Go to node: typed key by key, then Enter; a prefix of an id goes nowhere while typing
    const finder = page.getByLabel('Go to node');
    await finder.pressSequentially(nodeId(12));
    await page.keyboard.press('Enter');
    await panel(page).getByText(whatWasDone(12)).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tree/${RUN}/${nodeId(12)}`);
    // by its name, any case, with the Go button
    await finder.fill('IMPROVE: VARIANT 7');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await panel(page).getByText(whatWasDone(7)).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tree/${RUN}/${nodeId(7)}`);
    // a name no node has is said, and the node shown stays
    await finder.fill('no such node');
    await page.keyboard.press('Enter');
    await page.getByText('No node of this tree has the id or name “no such node”.').waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tree/${RUN}/${nodeId(7)}`);
  });

  test('an unknown run shows the API error; an unknown node says so beside the tree', async () => {
    refusals = ['404 GET /api/checkpoint/20260101000000_missing/summary'];
    let page = await open('#/tree/20260101000000_missing');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not found');
    await tab?.close();
    expect(tab?.errors).toEqual([]);
    expect(tab?.failed).toEqual(refusals);
    tab = null;
    refusals = [];
    page = await open(`#/tree/${RUN}/node_nowhere`);
    await page.getByText(`The run ${RUN} has no node node_nowhere`).waitFor();
    expect(await circles(page).count()).toBe(NODES);
  });

  // axe-core takes seconds on any page, tens of seconds on a busy machine: one analysis per test, and room for it
  const AXE_TEST_MS = 150_000;
  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px: the tree and a node's report fit the window, no serious accessibility violation`, async () => {
      const page = await open(`#/tree/${RUN}/${nodeId(6)}`, size);
      await panel(page).getByText(whatWasDone(6)).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `tree-${size.width}`);
    }, AXE_TEST_MS);

    test(`at ${size.width} px: every tab fits the window; the diff has no serious accessibility violation`, async () => {
      const page = await open(`#/tree/${RUN}/${nodeId(6)}`, size);
      for (const name of ['Trace', 'Memory', 'Metrics', 'Code']) {
        await openTabNamed(page, name);
        await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
        expect(await horizontalOverflow(page)).toBe(0);
      }
      await panel(page).locator('.cm-mergeView').waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    }, AXE_TEST_MS);
  }
});

describe.skipIf(noBrowser)('the Tree page with SVC_GUI_TOKEN set', () => {
  test('every call of the page and its tabs carries the token', async () => {
    const secured = await serveWorkspace((checkpoints) => fillTree(checkpoints, RUN, 8), { SVC_GUI_TOKEN: 'tree-test-token' });
    try {
      expect((await secured.viz.get(`/api/nodes/${RUN}/${nodeId(5)}`)).status).toBe(401);
      tab = await openTab(browser, secured.viz.base, '#token=tree-test-token');
      const page = tab.page;
      await page.evaluate(`location.hash = '#/tree/${RUN}/${nodeId(5)}'`);
      await panel(page).getByText(whatWasDone(5)).waitFor();
      await openTabNamed(page, 'Trace');
      await panel(page).getByText('2 tool calls').waitFor();
      await openTabNamed(page, 'Code');
      await panel(page).locator('.cm-mergeView').waitFor();
      await openTabNamed(page, 'Memory');
      await panel(page).getByText(memoryText(5)).waitFor();
      expect(tab.errors).toEqual([]);
      expect(tab.failed).toEqual([]);
    } finally {
      await tab?.close();
      tab = null;
      await secured.close();
    }
  });
});
