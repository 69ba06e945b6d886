/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core against
 * `dist/svc viz` on a generated workspace. Each page records its console errors and uncaught
 * exceptions, which the tests assert to be none.
 */
import { expect } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from './components.ts';
import { removeDir, tempDir } from './svc.ts';
import { startViz, type Viz } from './viz.ts';

export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 800, height: 800 };

export const SCREENSHOTS = join(import.meta.dir, '..', 'browser', 'screenshots');

export type Workspace = { dir: string; checkpoints: string; viz: Viz; close: () => Promise<void> };

/**
 * A workspace whose checkpoints directory `fill` writes, served by `svc viz` on a free port. The
 * server starts after `fill`, so it selects the newest checkpoint as a user would find it.
 */
export async function serveWorkspace(fill: (checkpoints: string) => void = () => {}, env: Record<string, string> = {}): Promise<Workspace> {
  const dir = tempDir('svc-browser-');
  const checkpoints = join(dir, 'workspace', 'checkpoints');
  mkdirSync(checkpoints, { recursive: true });
  fill(checkpoints);
  const viz = await startViz([checkpoints], { cwd: dir, env });
  return {
    dir,
    checkpoints,
    viz,
    close: async () => {
      await viz.stop();
      removeDir(dir);
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  // as root, Chromium runs only without its sandbox
  return chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

/**
 * A page and what went wrong on it: `errors` are console errors and uncaught exceptions of the
 * page's code; `failed` are the requests the server answered with 4xx or 5xx (the browser also
 * logs each as a console error, left out of `errors`).
 */
export type Tab = { page: Page; errors: string[]; failed: string[]; close: () => Promise<void> };

/** A new page of `size` in its own context, at `base` + `hash`, recording what went wrong. */
export async function openTab(browser: Browser, base: string, hash: string, size = WIDE): Promise<Tab> {
  // axe-core needs a page of a context made here, not browser.newPage()'s
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  // a page that works answers in well under this; a broken one fails the test soon
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  await page.goto(`${base}/${hash}`);
  return { page, errors, failed, close: () => context.close() };
}

/** How far the page is wider than the window, in pixels (0: no horizontal scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  // a string: the test code is not compiled with the DOM's types
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/** The accessibility violations of impact serious or critical, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Saves the page under test/browser/screenshots/<name>.png (a test artifact, not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Ends a browser test: closes its tab, then what else it opened (`close`), and only then checks
 * the tab: no console error or exception, and no refused request but the `expected` ones, in any
 * order. Closing comes first: a failed check must not leave this test's tab and servers to the next.
 */
export async function endTest(tab: Tab | null, expected: string[], close: () => Promise<unknown> = async () => {}): Promise<void> {
  const seen = tab && { errors: [...tab.errors], failed: [...tab.failed].sort() };
  try {
    await tab?.close();
  } finally {
    await close();
  }
  if (seen) {
    expect(seen.errors).toEqual([]);
    expect(seen.failed).toEqual([...expected].sort());
  }
}
