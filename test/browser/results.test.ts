import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { horizontalOverflow, launchBrowser, NARROW, openTab, screenshot, serveWorkspace, seriousViolations, type Tab, WIDE, type Workspace, endTest } from '../support/browser.ts';
import { lacks } from '../support/components.ts';
import { BINARY, LEAVES, NOTES, RESULTS, fillResults } from './results-workspace.ts';

// each test starts a server and drives a browser; a compile takes a few seconds more
setDefaultTimeout(90_000);

const noBrowser = lacks('chromium');
const noLatex = lacks('latex');

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

const reported = () => join(ws!.checkpoints, RESULTS.reported);

/** The Results page at `#/results/<parts>`, on the generated workspace. */
async function results(parts: string, size = WIDE, env: Record<string, string> = {}): Promise<Page> {
  ws ??= await serveWorkspace(fillResults, env);
  tab = await openTab(browser, ws.viz.base, `#/results/${parts}`, size);
  await tab.page.getByRole('heading', { name: 'Results', level: 1 }).waitFor();
  return tab.page;
}

describe.skipIf(noBrowser)('the Results page: files', () => {
  test('without a checkpoint in the address it shows the active one; the tree lists the files and a link opens one', async () => {
    const page = await results('');
    // the active checkpoint, once read, is the one shown: its files are listed
    await page.getByRole('navigation', { name: `Files of ${RESULTS.bare}` }).waitFor();
    expect(await page.getByLabel('Checkpoint', { exact: true }).inputValue()).toBe(RESULTS.bare);
    expect(await page.getByRole('tab', { name: 'Files' }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Checkpoint', { exact: true }).selectOption(RESULTS.reported);
    const tree = page.getByRole('navigation', { name: `Files of ${RESULTS.reported}` });
    await tree.getByRole('link', { name: 'notes.md' }).click();
    await page.getByRole('heading', { name: 'notes.md', level: 2 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/results/${RESULTS.reported}/files/notes.md`);
    expect(await page.locator('.cm-content').textContent()).toContain('Gap ratio 2.2 wins.');
    // folders fold; a file in one opens from a deep link with its folder open
    expect(await tree.getByText('evaluation/').isVisible()).toBe(true);
    expect(await tree.getByRole('link', { name: 'claim_evidence_hard_gate_final.json' }).isVisible()).toBe(false);
  });

  test('edit and save writes the file on disk, and Revert drops an unsaved edit', async () => {
    const page = await results(`${RESULTS.reported}/files/notes.md`);
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Ratio 3 is second.');
    await page.getByRole('button', { name: 'Revert' }).click();
    expect(await editor.textContent()).not.toContain('Ratio 3');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Ratio 3 is second.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved notes.md').waitFor();
    expect(readFileSync(join(reported(), 'notes.md'), 'utf8')).toBe(`${NOTES}Ratio 3 is second.`);
    // the file is read again after the save: until it is, the editor's text differs from the old copy
    await page.waitForFunction('[...document.querySelectorAll("button")].find((b) => b.textContent === "Save")?.disabled === true');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
  });

  test('an image is shown inline; other bytes are named with their size and a download link', async () => {
    const page = await results(`${RESULTS.reported}/files/fig_speedup.png`);
    const img = page.getByRole('img', { name: 'The image fig_speedup.png' });
    await img.waitFor();
    await page.waitForFunction('document.querySelector(".results-image")?.naturalWidth === 1');
    await page.goto(`${ws!.viz.base}/#/results/${RESULTS.reported}/files/data.bin`);
    await page.getByText(`Binary, ${BINARY.length} bytes`).waitFor();
    const link = page.getByRole('link', { name: 'Download' });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toBe(`/api/checkpoint/${RESULTS.reported}/file/raw?path=data.bin`);
    const res = await ws!.viz.req(href);
    expect(Buffer.from(await res.arrayBuffer()).equals(BINARY)).toBe(true);
  });

  test('delete asks first: cancel keeps the file, confirm removes it from disk', async () => {
    const page = await results(`${RESULTS.reported}/files/notes.md`);
    const file = join(reported(), 'notes.md');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete notes.md?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(existsSync(file)).toBe(true);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted notes.md.').waitFor();
    expect(existsSync(file)).toBe(false);
    await page.getByRole('link', { name: 'notes.md' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe(`#/results/${RESULTS.reported}/files`);
  });

  test('upload into a checkpoint that is not active offers to switch, then lands the file in uploads/', async () => {
    const page = await results(RESULTS.reported);
    await page.getByText(`which is ${RESULTS.bare}`).waitFor();
    await page.getByRole('button', { name: `Make ${RESULTS.reported} active` }).click();
    await page.getByText(`${RESULTS.reported} is now the active checkpoint.`).waitFor();
    expect((await ws!.viz.get('/api/active-checkpoint')).body.id).toBe(RESULTS.reported);
    const csv = 'n,comparisons\n2000,32617\n';
    await page.getByLabel(/^Files for uploads/).setInputFiles([{ name: 'sizes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(`Uploaded uploads/sizes.csv (${csv.length} B).`).waitFor();
    expect(readFileSync(join(reported(), 'uploads', 'sizes.csv'), 'utf8')).toBe(csv);
    await page.getByRole('navigation', { name: `Files of ${RESULTS.reported}` }).locator('summary', { hasText: /^uploads\// }).waitFor();
  });

  test("a new file outside the checkpoint shows the API's error and writes nothing", async () => {
    const page = await results(RESULTS.reported);
    const expected = (await ws!.viz.post('/api/checkpoint/file/save', { id: RESULTS.reported, path: '../escape.txt', content: '' })).body.error;
    expect(expected).toBeString();
    refusals = ['400 POST /api/checkpoint/file/save'];
    await page.getByLabel('Path inside the checkpoint').fill('../escape.txt');
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.locator('.notice.error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(expected);
    expect(existsSync(join(ws!.checkpoints, 'escape.txt'))).toBe(false);
    // the index the server keeps of the checkpoints aside, nothing new beside them
    expect(readdirSync(ws!.checkpoints).filter((n) => !n.startsWith('.')).sort()).toEqual([RESULTS.reported, RESULTS.bare].sort());
  });

  test('a new file inside the checkpoint is created, folders and all, and opened', async () => {
    const page = await results(RESULTS.reported);
    await page.getByLabel('Path inside the checkpoint').fill('drafts/ideas.md');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'drafts/ideas.md', level: 2 }).waitFor();
    expect(readFileSync(join(reported(), 'drafts', 'ideas.md'), 'utf8')).toBe('');
  });
});

describe.skipIf(noBrowser)('the Results page: reports', () => {
  test('paper: the LaTeX source and the PDF from the file route', async () => {
    const page = await results(`${RESULTS.reported}/paper`);
    await page.getByRole('heading', { name: 'LaTeX source' }).waitFor();
    expect(await page.getByLabel('Source', { exact: true }).inputValue()).toBe('full_paper.tex');
    await page.waitForFunction('document.querySelector(".cm-content")?.textContent.includes("geometric Shell sort")');
    const frame = page.getByTitle('Preview of full_paper.pdf');
    const src = (await frame.getAttribute('src')) ?? '';
    expect(src).toBe(`/api/checkpoint/${RESULTS.reported}/file/raw?path=full_paper.pdf`);
    const res = await ws!.viz.req(src);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await page.getByText('Fewer comparisons with geometric Shell sort').count()).toBeGreaterThan(0);
    // the run's images, as the figures of the paper
    await page.getByRole('heading', { name: 'Figures (1)' }).waitFor();
    await page.waitForFunction('document.querySelector(".results-figures img")?.naturalWidth === 1');
    expect(await page.getByRole('img', { name: 'Figure fig_speedup.png' }).isVisible()).toBe(true);
  });

  test.skipIf(noLatex)("paper: compile makes the PDF with pdflatex; a broken draft shows TeX's error and the log", async () => {
    const page = await results(`${RESULTS.reported}/paper`);
    const pdf = join(reported(), 'full_paper.pdf');
    const before = statSync(pdf).size;
    await page.getByRole('button', { name: 'Compile full_paper.tex' }).click();
    await page.getByText('Compiled full_paper.tex to full_paper.pdf.').waitFor({ timeout: 60_000 });
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(pdf).size).not.toBe(before);

    refusals = ['422 POST /api/checkpoint/compile'];
    await page.getByLabel('Source', { exact: true }).selectOption('paper/broken.tex');
    await page.getByRole('button', { name: 'Compile broken.tex' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain('Undefined control sequence');
    expect(await page.getByLabel('End of the LaTeX log').textContent()).toContain('gapratio');
    expect(existsSync(join(reported(), 'paper', 'broken.pdf'))).toBe(false);
  });

  test('review: the overall score and decision, each dimension, the text as Markdown, each reviewer', async () => {
    const page = await results(`${RESULTS.reported}/review`);
    await page.getByRole('heading', { name: 'Review: the meta review of 2 reviewers' }).waitFor();
    const facts = page.locator('.results-facts').first();
    expect(await facts.textContent()).toContain('Overall score6.00');
    expect(await facts.textContent()).toContain('Decisionweak_accept');
    const rows = page.getByRole('table', { name: 'Scores of the review' }).locator('tbody tr');
    expect(await rows.allTextContents()).toEqual(['Soundness3.01 to 4', 'Presentation2.01 to 4', 'Contribution3.01 to 4', 'Overall6.01 to 10']);
    expect(await page.locator('.markdown strong').first().textContent()).toBe('measures');
    expect(await page.getByRole('heading', { name: 'Issues', level: 3 }).count()).toBe(1);
    await page.getByText('Reviewer 2: overall 5.00, reject').click();
    await page.getByText('Reviewer two wants more sizes.').waitFor();
  });

  test("claims: the final gate's verdict, counts and findings; the draft's on request", async () => {
    const page = await results(`${RESULTS.reported}/claims`);
    await page.getByRole('heading', { name: 'Claim gate on the final paper: fail' }).waitFor();
    expect(await page.getByText('It blocks the paper: 1 blocking error: numeric_mismatch.', { exact: false }).count()).toBe(1);
    const errors = page.getByRole('region', { name: 'Errors' }).locator('tbody tr');
    expect(await errors.count()).toBe(1);
    expect(await errors.first().textContent()).toContain('numeric_mismatch');
    expect(await errors.first().textContent()).toContain('32671');
    await page.getByRole('button', { name: 'Draft' }).click();
    await page.getByRole('heading', { name: 'Claim gate on the draft paper: warn' }).waitFor();
    expect(await page.getByText('No errors: every claim checked has its evidence.').count()).toBe(1);
  });

  test('reproducibility: the ORS score, runs, spread, degraded and the leaf grades', async () => {
    const page = await results(`${RESULTS.reported}/reproducibility`);
    await page.getByRole('heading', { name: 'Reproducibility', level: 2 }).waitFor();
    const facts = await page.locator('.results-facts').textContent();
    expect(facts).toContain('ORS score0.720');
    expect(facts).toContain('Runs3 (0.750, 0.750, 0.700)');
    expect(facts).toContain('Spread0.050');
    expect(facts).toContain('Leaves passed2 of 3');
    expect(await page.locator('.notice.error').textContent()).toContain('Degraded: 1 of 3 leaves have no valid judge answer');
    await page.getByRole('heading', { name: `Leaf grades (${LEAVES.length})` }).waitFor();
    const rows = page.locator('.results-table tbody tr');
    expect(await rows.count()).toBe(LEAVES.length);
    expect(await rows.nth(2).textContent()).toContain('The log shows 29.8 times.');
  });

  test('lineage: each decision with its trigger, action, state and rationale', async () => {
    const page = await results(`${RESULTS.reported}/lineage`);
    const rows = page.locator('.results-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain('switch_to_idea → idea 1');
    expect(await rows.first().textContent()).toContain('6 nodes explored');
    expect(await rows.first().textContent()).toContain('The last five scores differ by less than 0.05.');
    expect(await rows.nth(1).textContent()).toContain('(not carried out)');
  });

  test('a run without reports says for each section that it has none yet and which stage makes it', async () => {
    const page = await results(RESULTS.bare);
    const expectations: [string, string, string][] = [
      ['Paper', 'No paper yet', 'write_paper'],
      ['Review', 'No review yet', 'review_paper'],
      ['Claims', 'No claim gate findings yet', 'claim_evidence_hard_gate_draft'],
      ['Reproducibility', 'No reproducibility report yet', 'ors_grade'],
      ['Lineage', 'No lineage decisions yet', 'lineage_decision'],
    ];
    for (const [tabName, title, stage] of expectations) {
      await page.getByRole('tab', { name: tabName }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      expect(await page.locator('.state.empty').textContent()).toContain(stage);
    }
    expect(new URL(page.url()).hash).toBe(`#/results/${RESULTS.bare}/lineage`);
  });

  test('the artifact bundle is the last tab, at its own address', async () => {
    const page = await results(`${RESULTS.reported}/bundle`);
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs.at(-1)).toBe('Artifact bundle');
    expect(await page.getByRole('tab', { name: 'Artifact bundle' }).getAttribute('aria-selected')).toBe('true');
  });

  test('with SVC_GUI_TOKEN set the API calls and the image link carry the token', async () => {
    const token = 'results-token-0123456789';
    ws = await serveWorkspace(fillResults, { SVC_GUI_TOKEN: token });
    tab = await openTab(browser, ws.viz.base, `#token=${token}`);
    const page = tab.page;
    await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    await page.evaluate(`location.hash = '#/results/${RESULTS.reported}/files/fig_speedup.png'`);
    await page.getByRole('img', { name: 'The image fig_speedup.png' }).waitFor();
    await page.waitForFunction('document.querySelector(".results-image")?.naturalWidth === 1');
    expect(await page.locator('.results-image').getAttribute('src')).toEndWith(`&token=${token}`);
  });
});

describe.skipIf(noBrowser)('the Results page at both widths', () => {
  for (const size of [WIDE, NARROW]) {
    // six sections checked by axe-core in one test: more time than the others
    test(`at ${size.width} px every section fits the window, with no serious accessibility violation`, async () => {
      const page = await results(`${RESULTS.reported}/files/notes.md`, size);
      await page.locator('.cm-content').waitFor();
      for (const section of ['files', 'paper', 'review', 'claims', 'reproducibility', 'lineage']) {
        await page.evaluate(`location.hash = '#/results/${RESULTS.reported}/${section}'`);
        await page.waitForFunction('document.querySelectorAll(".state.loading").length === 0');
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
      }
      await page.evaluate(`location.hash = '#/results/${RESULTS.reported}/review'`);
      await page.getByRole('heading', { name: /^Review/ }).first().waitFor();
      await screenshot(page, `results-${size.width}`);
    }, 300_000);
  }
});
