import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { startTestRegistry, type TestRegistry } from '../support/registry-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { BUNDLE_RUN, fillBundleWorkspace, VALID_YAML } from './bundle-workspace.ts';

// each test starts a registry and a server and drives a browser
setDefaultTimeout(60_000);

const noBrowser = lacks('chromium');
const HASH = `#/results/${BUNDLE_RUN}/bundle`;
const EAR_API = `/api/ear/${BUNDLE_RUN}`;

let browser: Browser;
let scratch: string;
let registry: TestRegistry | null = null;
let ws: Workspace | null = null;
let tab: Tab | null = null;
/** The requests a test expects the server to refuse; any other refusal fails it. */
let refusals: string[] = [];

beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchBrowser();
  scratch = tempDir('svc-bundle-');
});
afterAll(async () => {
  await browser?.close();
  if (scratch) removeDir(scratch);
});
afterEach(async () => {
  const [done, expected] = [tab, refusals];
  tab = null;
  refusals = [];
  await endTest(done, expected, async () => {
    await ws?.close();
    ws = null;
    await registry?.stop();
    registry = null;
  });
});

/**
 * A real registry, and `svc viz` on the bundle workspace publishing to it as alice (or with
 * `token`); `prepare` runs API calls before the page opens.
 */
async function openPanel(opts: { yaml?: string; token?: string; guiToken?: string; size?: typeof WIDE; prepare?: () => Promise<void> } = {}): Promise<{ page: Page; panel: Locator }> {
  registry = startTestRegistry(scratch);
  const token = opts.token ?? registry.token('alice');
  const env = { SVC_REGISTRY_URL: registry.url, SVC_REGISTRY_TOKEN: token, ...(opts.guiToken ? { SVC_GUI_TOKEN: opts.guiToken } : {}) };
  ws = await serveWorkspace((c) => fillBundleWorkspace(c, opts.yaml), env);
  await opts.prepare?.();
  if (opts.guiToken) {
    // opened as the server prints it, then on to the panel
    tab = await openTab(browser, ws.viz.base, `#token=${opts.guiToken}`, opts.size);
    await tab.page.waitForURL((u) => u.hash === '#/');
    await tab.page.evaluate(`location.hash = '${HASH}'`);
  } else tab = await openTab(browser, ws.viz.base, HASH, opts.size);
  const panel = tab.page.getByRole('region', { name: 'Artifact bundle' });
  await panel.getByRole('heading', { name: 'Artifact bundle', level: 2 }).waitFor();
  return { page: tab.page, panel };
}

const runDir = () => join(ws!.checkpoints, BUNDLE_RUN);
const yamlOnDisk = () => join(runDir(), 'ear', 'publish.yaml');
const manifest = () => JSON.parse(readFileSync(join(runDir(), 'ear_published', 'manifest.lock'), 'utf8')) as { bundle_sha256: string; files: { path: string }[]; excluded_count: number };

/** Replaces the editor's whole text, as a user selecting all and typing would. */
async function typeYaml(page: Page, panel: Locator, text: string): Promise<void> {
  const editor = panel.getByRole('textbox', { name: 'publish.yaml' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

async function curateByApi(): Promise<void> {
  expect((await ws!.viz.post(`${EAR_API}/curate`, {})).status).toBe(200);
}

async function publishByApi(): Promise<string> {
  const r = await ws!.viz.post(`/api/publish/${BUNDLE_RUN}`, { consent: true });
  expect(r.status).toBe(200);
  return r.body.record.ref;
}

const registryVisibility = (id: string) => JSON.parse(readFileSync(join(registry!.dataDir, 'artifacts', id, 'meta.json'), 'utf8')).visibility;

describe.skipIf(noBrowser)('the artifact bundle panel', () => {
  test('publish.yaml: the default loads; an invalid edit shows the server error and writes nothing; a valid one is saved', async () => {
    const { page, panel } = await openPanel();
    await panel.getByText('This run has no publish.yaml yet').waitFor();
    expect(await panel.getByRole('textbox', { name: 'publish.yaml' }).textContent()).toContain('backend: svc-registry');
    await panel.getByRole('heading', { name: 'No bundle yet' }).waitFor();
    expect(await panel.getByText('Save publish.yaml, then press Curate.').isVisible()).toBe(true);

    const bad = 'include:\n  - "**/*"\nmax_file_mb: lots\n';
    await typeYaml(page, panel, bad);
    await panel.getByText('Unsaved changes').waitFor();
    await panel.getByRole('button', { name: 'Save' }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    // the message is the server's own
    const expected = await ws!.viz.post(`${EAR_API}/publish-yaml`, { yaml: bad });
    expect(expected.status).toBe(400);
    expect(await alert.textContent()).toBe(expected.body.error);
    expect(expected.body.error).toContain('max_file_mb');
    expect(existsSync(yamlOnDisk())).toBe(false);

    await typeYaml(page, panel, VALID_YAML);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Saved ear/publish.yaml.').waitFor();
    expect(readFileSync(yamlOnDisk(), 'utf8')).toBe(VALID_YAML);
    await panel.getByText('Press Curate.').waitFor();

    // an invalid edit of a saved file leaves it as it was
    await typeYaml(page, panel, VALID_YAML.replace('visibility: public', 'visibility: world'));
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('alert').filter({ hasText: 'visibility' }).waitFor();
    expect(readFileSync(yamlOnDisk(), 'utf8')).toBe(VALID_YAML);
    // Revert brings back the saved text
    await panel.getByRole('button', { name: 'Revert' }).click();
    expect(await panel.getByRole('textbox', { name: 'publish.yaml' }).textContent()).toContain('visibility: public');
    expect(await panel.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    refusals = [`400 POST ${EAR_API}/publish-yaml`, `400 POST ${EAR_API}/publish-yaml`];
  });

  test('curate makes the bundle: its digest and counts show, and the preview lists its files without the secrets', async () => {
    const { panel } = await openPanel({ yaml: VALID_YAML });
    await panel.getByRole('heading', { name: 'No bundle yet' }).waitFor();
    await panel.getByRole('button', { name: 'Curate', exact: true }).click();
    await panel.getByText(/^Curated \d+ files/).waitFor();
    const lock = manifest();
    expect(await panel.getByText(/^Curated \d+ files/).textContent()).toBe(`Curated ${lock.files.length} files (${lock.excluded_count} left out).`);
    expect(lock.excluded_count).toBeGreaterThanOrEqual(2);
    const curated = panel.getByRole('region', { name: 'Curated bundle' });
    await curated.getByText(lock.bundle_sha256).waitFor();
    expect(await curated.getByText(`${lock.files.length} kept, ${lock.excluded_count} left out`).isVisible()).toBe(true);
    expect(await curated.getByRole('button', { name: 'Curate again' }).isVisible()).toBe(true);

    const publish = panel.getByRole('region', { name: 'Publish', exact: true });
    const files = publish.getByRole('region', { name: 'Files of the bundle' });
    await files.locator('tbody tr').first().waitFor();
    const listed = await files.locator('td.path').allTextContents();
    expect(listed).toEqual(lock.files.map((f) => f.path));
    expect(listed).toContain('code/train.py');
    expect(listed).not.toContain('id_rsa');
    expect(listed).not.toContain('.env');
    expect(await publish.getByText('svc-registry (sends the bundle off this machine)').isVisible()).toBe(true);
    expect(await publish.getByText('staged at first (publish.yaml asks for public: promote it after)').isVisible()).toBe(true);
  });

  test('a curation the server refuses (a file over max_file_mb) shows its error and makes no bundle', async () => {
    const { panel } = await openPanel({
      yaml: `${VALID_YAML}max_file_mb: 1\n`,
      prepare: async () => writeFileSync(join(runDir(), 'ear', 'data', 'big.bin'), new Uint8Array(1536 * 1024)),
    });
    await panel.getByRole('button', { name: 'Curate', exact: true }).click();
    const alert = panel.getByRole('region', { name: 'Curated bundle' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('ear/data/big.bin is 1.5 MB, over max_file_mb 1');
    expect(existsSync(join(runDir(), 'ear_published'))).toBe(false);
    expect(await panel.getByRole('heading', { name: 'No bundle yet' }).isVisible()).toBe(true);
    expect(await panel.getByRole('region', { name: 'Publish', exact: true }).count()).toBe(0);
    refusals = [`413 POST ${EAR_API}/curate`];
  });

  test('publishing to the registry waits for a consent naming it; the record shows; promote asks first, then the registry has it public', async () => {
    const { page, panel } = await openPanel({ yaml: VALID_YAML, prepare: curateByApi });
    const publish = panel.getByRole('region', { name: 'Publish', exact: true });
    const lock = manifest();
    const consent = publish.getByRole('checkbox', { name: `Upload these ${lock.files.length} files` });
    await consent.waitFor();
    expect(await consent.isChecked()).toBe(false);
    expect(await publish.getByText(`to svc-registry. They leave this machine.`).isVisible()).toBe(true);
    const button = publish.getByRole('button', { name: 'Publish to svc-registry' });
    expect(await button.isDisabled()).toBe(true);
    expect(registry!.artifacts()).toEqual([]);

    await consent.check();
    await button.click();
    await publish.getByText('Published to svc-registry: svc://').waitFor();
    const [id] = registry!.artifacts();
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const onDisk = JSON.parse(readFileSync(join(runDir(), 'publish_record.json'), 'utf8'));
    expect(onDisk).toMatchObject({ backend: 'svc-registry', ref: `svc://${id}`, visibility: 'staged', dry_run: false });
    const record = panel.getByRole('region', { name: 'Publish record' });
    await record.getByText(`svc://${id}`).waitFor();
    expect(await record.locator('.badge').first().textContent()).toBe('staged');
    expect(await record.getByText(lock.bundle_sha256).isVisible()).toBe(true);
    expect(await record.getByText(onDisk.extra.tarball_sha256).isVisible()).toBe(true);
    expect(await record.getByText(registry!.url).isVisible()).toBe(true);
    expect(registryVisibility(id!)).toBe('staged');

    await record.getByLabel('Promote to').selectOption('public');
    await record.getByRole('button', { name: 'Promote…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Promote the bundle to public?' });
    await dialog.getByText(`svc://${id} on svc-registry becomes public`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(registryVisibility(id!)).toBe('staged');

    await record.getByRole('button', { name: 'Promote…' }).click();
    await dialog.getByRole('button', { name: 'Promote to public' }).click();
    await record.getByText('Promoted to public.').waitFor();
    await record.locator('.badge', { hasText: 'public' }).waitFor();
    expect(registryVisibility(id!)).toBe('public');
    expect(JSON.parse(readFileSync(join(runDir(), 'publish_record.json'), 'utf8'))).toMatchObject({ visibility: 'public', promoted_at: expect.any(String) });
    expect(await record.getByText('there is nothing to promote it to').isVisible()).toBe(true);
  });

  test('a publish the registry refuses shows the server error and writes no record', async () => {
    const { panel } = await openPanel({ yaml: VALID_YAML, token: 'not-a-token', prepare: curateByApi });
    const publish = panel.getByRole('region', { name: 'Publish', exact: true });
    await publish.getByRole('checkbox').check();
    await publish.getByRole('button', { name: 'Publish to svc-registry' }).click();
    const alert = publish.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toStartWith('auth: ');
    expect(existsSync(join(runDir(), 'publish_record.json'))).toBe(false);
    expect(registry!.artifacts()).toEqual([]);
    expect(await panel.getByRole('region', { name: 'Publish record' }).count()).toBe(0);
    refusals = [`401 POST /api/publish/${BUNDLE_RUN}`];
  });

  test('local-tarball needs no consent and keeps the tarball in the checkpoint; a dry run sends nothing', async () => {
    const { panel } = await openPanel({ yaml: VALID_YAML, prepare: curateByApi });
    const publish = panel.getByRole('region', { name: 'Publish', exact: true });
    await publish.getByRole('button', { name: 'Dry run' }).click();
    await publish.getByText('Dry run: nothing was sent; svc-registry would give svc://').waitFor();
    expect(registry!.artifacts()).toEqual([]);
    const record = panel.getByRole('region', { name: 'Publish record' });
    await record.getByText('dry run: nothing was sent').waitFor();
    expect(await record.getByRole('button', { name: 'Promote…' }).count()).toBe(0);

    await publish.getByLabel('Backend').selectOption('local-tarball');
    await publish.getByText('local-tarball (a tarball inside the checkpoint)').waitFor();
    expect(await publish.getByRole('checkbox').count()).toBe(0);
    await publish.getByRole('button', { name: 'Publish to local-tarball' }).click();
    await publish.getByText('Published to local-tarball: file://').waitFor();
    const onDisk = JSON.parse(readFileSync(join(runDir(), 'publish_record.json'), 'utf8'));
    expect(onDisk).toMatchObject({ backend: 'local-tarball', dry_run: false, visibility: 'staged' });
    expect(existsSync(onDisk.extra.path)).toBe(true);
    await record.getByText(onDisk.ref).waitFor();
    expect(registry!.artifacts()).toEqual([]);
  });

  test('an unknown run shows the server error in each section, and no action; an edit does not follow to another run', async () => {
    const { page, panel } = await openPanel();
    await typeYaml(page, panel, 'include: []\n');
    await panel.getByText('Unsaved changes').waitFor();
    await page.evaluate(`location.hash = '#/results/20990101000000_missing/bundle'`);
    const alerts = panel.getByRole('alert');
    await alerts.nth(1).waitFor();
    const expected = (await ws!.viz.get('/api/ear/20990101000000_missing')).body.error;
    expect(expected).toContain("no run '20990101000000_missing'");
    expect(await alerts.allTextContents()).toEqual([`${expected}Try again`, `${expected}Try again`]);
    expect(await panel.getByRole('button', { name: /^(Save|Curate)/ }).count()).toBe(0);
    await page.evaluate(`location.hash = '${HASH}'`);
    await panel.getByText('This run has no publish.yaml yet').waitFor();
    expect(await panel.getByRole('textbox', { name: 'publish.yaml' }).textContent()).toContain('backend: svc-registry');
    expect(await panel.getByText('Unsaved changes').count()).toBe(0);
    // the Results page around the panel reads the run too
    refusals = [
      '404 GET /api/checkpoint/20990101000000_missing/summary',
      '404 GET /api/checkpoint/20990101000000_missing/files',
      '404 GET /api/ear/20990101000000_missing',
      '404 GET /api/ear/20990101000000_missing/publish-yaml',
    ];
  });

  test('with SVC_GUI_TOKEN set, the panel reads and writes with the token', async () => {
    const { panel } = await openPanel({ guiToken: 'bundle-test-token' });
    expect((await ws!.viz.get(EAR_API)).status).toBe(401);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Saved ear/publish.yaml.').waitFor();
    expect(existsSync(yamlOnDisk())).toBe(true);
    await panel.getByRole('button', { name: 'Curate', exact: true }).click();
    await panel.getByText(/^Curated \d+ files/).waitFor();
    await panel.getByRole('region', { name: 'Publish', exact: true }).getByRole('region', { name: 'Files of the bundle' }).locator('tbody tr').first().waitFor();
  });

  for (const size of [WIDE, NARROW]) {
    test(`at ${size.width} px, every section shown: fits the window, no serious accessibility violation`, async () => {
      const { panel, page } = await openPanel({
        yaml: VALID_YAML,
        size,
        prepare: async () => {
          await curateByApi();
          await publishByApi();
        },
      });
      await panel.getByRole('region', { name: 'Publish record' }).getByRole('button', { name: 'Promote…' }).waitFor();
      await panel.getByRole('region', { name: 'Files of the bundle' }).locator('tbody tr').first().waitFor();
      await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `bundle-${size.width}`);
    });
  }
});
