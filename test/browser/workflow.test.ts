import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { fillWorkspace, RUNS } from './workspace.ts';

// each test starts a server and drives a browser; axe-core on the whole page takes a while on a busy machine
setDefaultTimeout(180_000);

const noBrowser = lacks('chromium');

type Flow = { nodes: { id: string; list: string }[]; edges: { from: string; to: string; kind: string }[] };
type SavedWorkflow = { skills: { name: string; phase: unknown }[]; disabled_tools?: string[]; pipeline: { stage: string; enabled?: boolean }[] };

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
    await ws?.close();
    ws = null;
  });
});

async function workflowPage(fill = fillWorkspace, size = WIDE): Promise<Page> {
  ws = await serveWorkspace(fill);
  tab = await openTab(browser, ws.viz.base, '#/workflow', size);
  await tab.page.locator('.workflow-node').first().waitFor();
  await tab.page.locator('.workflow-skills li').first().waitFor();
  return tab.page;
}

/** The active checkpoint's workflow copy, which every save writes. */
function savedWorkflow(): SavedWorkflow {
  return parse(readFileSync(join(ws?.checkpoints ?? '', RUNS.live, 'workflow.yaml'), 'utf8')) as SavedWorkflow;
}

/** The computed stroke-dasharray of each element `selector` finds ('none' for a solid line). */
function dashArrays(page: Page, selector: string): Promise<string[]> {
  // a string: the test code is not compiled with the DOM's types
  return page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((p) => getComputedStyle(p).strokeDasharray)`);
}

async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  return (await page.locator('.notice.ok').textContent()) ?? '';
}

describe.skipIf(noBrowser)('the Workflow page', () => {
  test('draws every stage of the workflow, its depends_on edges solid and its loop_back_to edges dashed, with a legend', async () => {
    const page = await workflowPage();
    const flow = (await ws?.viz.get('/api/workflow/flow'))?.body as Flow;
    expect(await page.locator('.workflow-node').count()).toBe(flow.nodes.length);
    const ids = await page.locator('.workflow-node').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-id')));
    expect(ids.sort()).toEqual(flow.nodes.map((n) => n.id).sort());
    const loops = flow.edges.filter((e) => e.kind === 'loop_back_to');
    expect(loops.length).toBeGreaterThan(0);
    const dashed = page.locator('path.workflow-edge-loop');
    expect(await dashed.count()).toBe(loops.length);
    for (const style of await dashArrays(page, 'path.workflow-edge-loop')) expect(style).not.toBe('none');
    const solid = page.locator('path.workflow-edge:not(.workflow-edge-loop)');
    expect(await solid.count()).toBe(flow.edges.length - loops.length);
    expect(new Set(await dashArrays(page, 'path.workflow-edge:not(.workflow-edge-loop)'))).toEqual(new Set(['none']));
    const loop = loops[0];
    expect(await page.locator(`path.workflow-edge-loop[data-from="${loop?.from}"][data-to="${loop?.to}"]`).count()).toBe(1);
    const legend = page.getByRole('list', { name: 'Legend' });
    expect(await legend.textContent()).toContain('loops back to');
  });

  test('a stage is chosen by click or by keyboard, and the panel shows its details and links', async () => {
    const page = await workflowPage();
    await page.locator('.workflow-node[data-id="write_paper"]').click();
    const panel = page.locator('.workflow-panel');
    await panel.getByRole('heading', { name: 'write_paper' }).waitFor();
    expect(await panel.textContent()).toContain('write_paper_iterative');
    expect(await panel.getByRole('button', { name: 'search_related_work' }).count()).toBe(1);
    await page.locator('.workflow-node[data-id="vlm_review_figures"]').focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('heading', { name: 'vlm_review_figures' }).waitFor();
    expect(await panel.textContent()).toContain('Loops back to');
    await panel.getByRole('button', { name: 'generate_figures' }).first().click();
    await panel.getByRole('heading', { name: 'generate_figures' }).waitFor();
    expect(await page.locator('.workflow-node.selected').getAttribute('data-id')).toBe('generate_figures');
  });

  test('switching a skill off and saving writes the workflow on disk, and a reload shows it off', async () => {
    const page = await workflowPage();
    const skill = page.getByRole('checkbox', { name: 'benchmark-skill', exact: true });
    expect(await skill.isChecked()).toBe(true);
    await skill.uncheck();
    expect(await page.getByRole('status').filter({ hasText: 'unsaved' }).textContent()).toBe('1 unsaved change');
    expect(await save(page)).toContain('Saved 1 skill');
    expect(savedWorkflow().skills.find((s) => s.name === 'benchmark-skill')?.phase).toBe('none');
    await page.reload();
    await page.locator('.workflow-skills li').first().waitFor();
    expect(await page.getByRole('checkbox', { name: 'benchmark-skill', exact: true }).isChecked()).toBe(false);
  });

  test("switching a tool off persists in the workflow's disabled_tools, and the tool shows off after a reload", async () => {
    const page = await workflowPage();
    const skill = (await ws?.viz.get('/api/skill/web-skill'))?.body as { tools: { name: string }[] };
    const tool = skill.tools[0]?.name ?? '';
    const tools = page.locator('li[data-skill="web-skill"]');
    await tools.getByText('Tools of web-skill').click();
    await tools.getByRole('checkbox', { name: tool, exact: true }).uncheck();
    expect(await save(page)).toContain('Saved 1 tool list');
    expect(savedWorkflow().disabled_tools).toContain(`web-skill:${tool}`);
    await page.reload();
    await page.locator('li[data-skill="web-skill"]').getByText('Tools of web-skill').click();
    const box = page.locator('li[data-skill="web-skill"]').getByRole('checkbox', { name: tool, exact: true });
    expect(await box.isChecked()).toBe(false);
    const other = skill.tools[1]?.name ?? '';
    expect(await page.locator('li[data-skill="web-skill"]').getByRole('checkbox', { name: other, exact: true }).isChecked()).toBe(true);
  });

  test('switching a stage off in its panel saves it disabled and draws it so; Reset to default, once confirmed, restores the bundled workflow', async () => {
    const page = await workflowPage();
    await page.locator('.workflow-node[data-id="generate_figures"]').click();
    await page.locator('.workflow-panel').getByRole('checkbox', { name: 'Stage enabled' }).uncheck();
    expect(await save(page)).toContain('Saved 1 stage');
    expect(savedWorkflow().pipeline.find((s) => s.stage === 'generate_figures')?.enabled).toBe(false);
    await page.locator('.workflow-node.off[data-id="generate_figures"]').waitFor();

    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(savedWorkflow().pipeline.find((s) => s.stage === 'generate_figures')?.enabled).toBe(false);
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
    await page.locator('.notice.ok').filter({ hasText: 'Reset to the bundled default' }).waitFor();
    const bundled = (await ws?.viz.get('/api/workflow/default'))?.body as { yaml: string };
    expect(readFileSync(join(ws?.checkpoints ?? '', RUNS.live, 'workflow.yaml'), 'utf8')).toBe(bundled.yaml);
    await page.locator('.workflow-node[data-id="generate_figures"]:not(.off)').waitFor();
  });

  test("a save without an active checkpoint shows the API's error and keeps the change unsaved", async () => {
    const page = await workflowPage(() => {});
    await page.getByRole('checkbox', { name: 'plot-skill', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.locator('.notice.error[role="alert"]');
    const answer = await ws?.viz.post('/api/workflow/skills', { name: 'plot-skill', enabled: false });
    expect(answer?.status).toBeGreaterThanOrEqual(400);
    expect(await alert.textContent()).toBe(answer?.body.error);
    expect(await page.getByRole('checkbox', { name: 'plot-skill', exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('status').filter({ hasText: 'unsaved' }).textContent()).toBe('1 unsaved change');
    expect(existsSync(join(ws?.checkpoints ?? '', 'workflow.yaml'))).toBe(false);
    refusals = [`${answer?.status} POST /api/workflow/skills`];
  });

  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px the page fits the window, has no serious accessibility violation and no error`, async () => {
      const page = await workflowPage(fillWorkspace, size);
      await page.locator('.workflow-node[data-id="write_paper"]').click();
      await page.locator('li[data-skill="paper-skill"]').getByText('Tools of paper-skill').click();
      await page.locator('li[data-skill="paper-skill"] .workflow-tools li').first().waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `workflow-${size.width}`);
    });
  }
});
