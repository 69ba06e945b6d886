// The dashboard in headless Chromium: how soon a page is interactive on a large workspace, next to
// the same page on an empty one, measured the same way in the same run. "Interactive" is the
// page's own clock (ms since navigation started) when its content is drawn and the main thread
// has run one frame and one task after it: a click then gets an answer at once. Each visit is a
// new browser context (no cache), after one warm-up visit per page.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openTab } from '../support/browser.ts';
import { fillTree } from '../browser/tree-workspace.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks } from '../support/components.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';
import { median, report } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_MS = 1000;

/** One way to visit a page: where, and when its content counts as drawn (a DOM test, in the page). */
type Visit = { label: string; hash: string; drawn: string };

/** Visits `v` on the dashboard at `base` in a fresh context; the page's interactive time in ms. */
async function interactiveMs(browser: Browser, base: string, v: Visit): Promise<number> {
  const tab = await openTab(browser, base, v.hash);
  try {
    await tab.page.waitForFunction(v.drawn, undefined, { polling: 'raf', timeout: 30_000 });
    // strings: the bench is not compiled with the DOM's types
    const ms = await tab.page.evaluate<number>('new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(performance.now()))))');
    if (tab.errors.length > 0) throw new Error(`${v.label}: ${tab.errors.join('; ')}`);
    return ms;
  } finally {
    await tab.close();
  }
}

async function measure(browser: Browser, base: string, v: Visit): Promise<number> {
  await interactiveMs(browser, base, v);
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) times.push(await interactiveMs(browser, base, v));
  return median(times);
}

async function main() {
  const dir = tempDir('svc-bench-ui-');
  const browser = await launchBrowser();
  try {
    const empty = join(dir, 'empty', 'checkpoints');
    writeCheckpoint(empty, { runId: '20261101000000_only', nodes: 1 });
    const many = join(dir, 'many', 'checkpoints');
    for (let i = 0; i < 1000; i++) writeCheckpoint(many, { runId: `20261101${String(i).padStart(6, '0')}_run`, nodes: 20 });
    const big = join(dir, 'big', 'checkpoints');
    fillTree(big, '20261102000000_big', 1000);

    // the list is drawn: its rows, and for a long list the "Show more" under its first rows
    const experiments = (long: boolean): Visit => ({
      label: 'experiments',
      hash: '#/experiments',
      drawn: long ? `document.querySelector('table.experiments tbody tr') !== null && document.querySelector('p.more button') !== null` : `document.querySelector('table.experiments tbody tr') !== null`,
    });
    const tree = (run: string, nodes: number): Visit => ({
      label: 'tree',
      hash: `#/tree/${run}`,
      drawn: `document.querySelectorAll('.tree-node').length >= ${nodes}`,
    });
    const results: [string, number][] = [];
    for (const [name, root, visit] of [
      ['Experiments, 1 checkpoint (the empty page)', empty, experiments(false)],
      ['Experiments, 1,000 checkpoints', many, experiments(true)],
      ['Tree, 1 node', empty, tree('20261101000000_only', 1)],
      ['Tree, 1,000 nodes', big, tree('20261102000000_big', 1000)],
    ] as const) {
      const viz = await startViz([root], { cwd: dir, env: { HOME: dir } });
      try {
        results.push([name, await measure(browser, viz.base, visit)]);
      } finally {
        await viz.stop();
      }
    }
    const base = results[0]![1];
    console.log(`page interactive after navigation start, median of ${ROUNDS} fresh visits:`);
    for (const [name, ms] of results) report(name, ms, base, name.includes('1,000') ? TARGET_MS : undefined);
  } finally {
    await browser.close();
    removeDir(dir);
  }
}

if (lacks('chromium')) console.log('skipped: the UI benchmark needs chromium (/usr/bin/chromium); bash scripts/test-setup.sh installs it');
else await main();
