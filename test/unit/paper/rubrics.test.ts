import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { ConflictError, InputError, NotFoundError } from '../../../src/core/errors.ts';
import { bundledRubrics, defaultRubric, knownRubricId, loadRubricCatalog, rubricSummary, usableRubric } from '../../../src/paper/rubrics.ts';
import { Rubric } from '../../../src/schema/rubric.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const SPEC_IDS = ['neurips', 'iclr', 'icml', 'cvpr', 'acl', 'sc', 'osdi', 'usenix_security', 'stoc', 'siggraph', 'chi', 'icra', 'nature', 'journal_generic', 'workshop', 'generic_conference'];
const RUBRIC_SRC = resolve(import.meta.dir, '../../../src/paper/rubrics');

describe('bundled rubrics', () => {
  const files = readdirSync(RUBRIC_SRC).filter((n) => n.endsWith('.yaml'));

  test('one file per spec id, and exactly those are embedded, in the spec order', () => {
    expect(files.map((f) => f.slice(0, -5)).sort()).toEqual([...SPEC_IDS].sort());
    expect(bundledRubrics().map((r) => r.id)).toEqual(SPEC_IDS);
  });

  test.each(SPEC_IDS)('%s.yaml follows the rubric schema', (id) => {
    const raw = parse(readFileSync(join(RUBRIC_SRC, `${id}.yaml`), 'utf8'));
    expect([...Value.Errors(Rubric, raw)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(raw.id).toBe(id);
  });

  test.each(SPEC_IDS)('%s: 6 to 10 distinct dimensions, a decision on one of them, spec defaults', (id) => {
    const r = bundledRubrics().find((b) => b.id === id)?.rubric as Rubric;
    const names = r.score_dimensions.map((d) => d.name);
    expect(names.length).toBeGreaterThanOrEqual(6);
    expect(names.length).toBeLessThanOrEqual(10);
    expect(new Set([...names, ...r.text_sections.map((s) => s.name), 'decision']).size).toBe(names.length + r.text_sections.length + 1);
    const threshold = r.score_dimensions.find((d) => d.name === r.decision.threshold_dimension);
    expect(threshold).toBeDefined();
    expect(r.decision.threshold_value).toBe(r.params.score_threshold_decision);
    for (const d of r.score_dimensions) expect(d.scale[0]).toBeLessThan(d.scale[1]);
    expect(r.text_sections.some((s) => s.required)).toBe(true);
    expect(r.params).toMatchObject({ num_fs_examples: 1, num_reviews_ensemble: 1, temperature: 0.75, fewshot_mode: 'static' });
  });

  test('NeurIPS follows its review form', () => {
    const scales = Object.fromEntries(bundledRubrics()[0]?.rubric.score_dimensions.map((d) => [d.name, d.scale]) ?? []);
    expect(scales).toMatchObject({ soundness: [1, 4], presentation: [1, 4], contribution: [1, 4], overall: [1, 10], confidence: [1, 5] });
  });
});

describe('user rubrics', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = tempDir();
    dir = join(root, 'reviewer_rubrics');
    mkdirSync(dir);
  });
  afterEach(() => removeDir(root));

  test('without a rubric directory: the sixteen bundled rubrics, no problems', () => {
    removeDir(dir);
    const c = loadRubricCatalog(root);
    expect(c.rubrics.map((r) => r.id)).toEqual(SPEC_IDS);
    expect(c.rubrics.every((r) => r.source === 'bundled')).toBe(true);
    expect(c.problems).toEqual([]);
  });

  test('a minimal file overrides the bundled rubric of its id; a new id adds one after the bundled ones', () => {
    writeFileSync(join(dir, 'neurips.yaml'), 'id: neurips\nvenue: NeurIPS\nscore_dimensions:\n  - {name: overall, scale: [1, 10]}\n');
    writeFileSync(join(dir, 'mylab.yml'), 'venue: Lab meeting\nversion: 2\nscore_dimensions:\n  - {name: fun, scale: [0, 3]}\n');
    const c = loadRubricCatalog(root);
    expect(c.problems).toEqual([]);
    expect(c.rubrics.map((r) => r.id)).toEqual([...SPEC_IDS, 'mylab']);
    expect(rubricSummary(c.rubrics[0]!)).toEqual({ id: 'neurips', venue: 'NeurIPS', domain: null, version: null, source: join(dir, 'neurips.yaml'), dimensions: ['overall'] });
    expect(rubricSummary(c.rubrics[16]!)).toEqual({ id: 'mylab', venue: 'Lab meeting', domain: null, version: '2', source: join(dir, 'mylab.yml'), dimensions: ['fun'] });
  });

  test.each([
    ['bad YAML', 'venue: [unclosed\n', /neurips\.yaml:\d+:\d+: /],
    ['a list', '- a\n- b\n', /must be a mapping of keys/],
    ['no dimensions', 'venue: X\n', /score_dimensions/],
    ['a scale of strings', 'score_dimensions:\n  - {name: overall, scale: [low, high]}\n', /score_dimensions\[0\]\.scale\[0\]/],
    ['a scale running down', 'score_dimensions:\n  - {name: overall, scale: [10, 1]}\n', /score_dimensions\[0\]\.scale: \[10, 1\] must run from a lower/],
    ['a duplicate dimension', 'score_dimensions:\n  - {name: a, scale: [1, 4]}\n  - {name: a, scale: [1, 4]}\n', /score_dimensions\[1\]\.name: 'a' is used twice/],
    ['a section named like a dimension', 'score_dimensions:\n  - {name: a, scale: [1, 4]}\ntext_sections:\n  - {name: a, required: true}\n', /text_sections\[0\]\.name/],
    ['a threshold on no dimension', 'score_dimensions:\n  - {name: a, scale: [1, 4]}\ndecision: {type: binary, options: [accept, reject], threshold_dimension: b, threshold_value: 2}\n', /decision\.threshold_dimension: 'b' is not a score dimension/],
    ['a threshold off the scale', 'score_dimensions:\n  - {name: a, scale: [1, 4]}\ndecision: {type: binary, options: [accept, reject], threshold_dimension: a, threshold_value: 7}\n', /decision\.threshold_value: 7 is outside the scale \[1, 4\]/],
    ['another id', 'id: iclr\nscore_dimensions:\n  - {name: a, scale: [1, 4]}\n', /id: 'iclr' differs from the file name 'neurips'/],
  ])('a file with %s is a problem; the bundled rubric stays in use', (_what, text, message) => {
    writeFileSync(join(dir, 'neurips.yaml'), text);
    const c = loadRubricCatalog(root);
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).toStartWith(join(dir, 'neurips.yaml'));
    expect(c.problems[0]).toMatch(message);
    expect(c.rubrics.find((r) => r.id === 'neurips')?.source).toBe('bundled');
    expect(usableRubric(c, 'neurips').source).toBe('bundled');
  });

  test('a broken file of a new id: known (its corpus is reachable) but not usable (409)', () => {
    writeFileSync(join(dir, 'broken.yaml'), 'venue: [\n');
    const c = loadRubricCatalog(root);
    expect(c.rubrics.some((r) => r.id === 'broken')).toBe(false);
    expect(knownRubricId(c, 'broken')).toBe('broken');
    expect(() => usableRubric(c, 'broken')).toThrow(ConflictError);
    expect(() => usableRubric(c, 'broken')).toThrow(/broken\.yaml/);
  });

  test('a .yml beside a .yaml of the same id, and a file name that is no id, are problems', () => {
    writeFileSync(join(dir, 'lab.yaml'), 'score_dimensions:\n  - {name: a, scale: [1, 4]}\n');
    writeFileSync(join(dir, 'lab.yml'), 'score_dimensions:\n  - {name: b, scale: [1, 4]}\n');
    writeFileSync(join(dir, 'my lab.yaml'), 'score_dimensions:\n  - {name: b, scale: [1, 4]}\n');
    writeFileSync(join(dir, 'README.md'), '# rubrics\n');
    mkdirSync(join(dir, 'fewshot_examples'));
    const c = loadRubricCatalog(root);
    expect(usableRubric(c, 'lab').rubric.score_dimensions[0]?.name).toBe('a');
    expect(c.problems).toEqual([`${join(dir, 'lab.yml')}: ignored, lab.yaml defines the same rubric`, `${join(dir, 'my lab.yaml')}: 'my lab' is not a rubric id (letters, digits, _ and - only)`]);
  });

  test('unknown rubrics are 404; ids are cleaned first', () => {
    const c = loadRubricCatalog(root);
    expect(() => knownRubricId(c, 'nope')).toThrow(NotFoundError);
    expect(() => knownRubricId(c, 'nope')).toThrow("unknown rubric 'nope'");
    expect(knownRubricId(c, '../neurips')).toBe('neurips');
    expect(() => knownRubricId(c, '../..')).toThrow(InputError);
  });
});

describe('default rubric', () => {
  const c = loadRubricCatalog('/nonexistent-project-root');

  test('SVC_RUBRIC when it names a known rubric, neurips when unset', () => {
    expect(defaultRubric(c, 'iclr')).toEqual({ id: 'iclr' });
    expect(defaultRubric(c, undefined)).toEqual({ id: 'neurips' });
    expect(defaultRubric(c, '')).toEqual({ id: 'neurips' });
  });

  test('an unknown SVC_RUBRIC falls back to neurips with a warning naming it', () => {
    expect(defaultRubric(c, 'icse')).toEqual({ id: 'neurips', warning: "SVC_RUBRIC names 'icse', which is not a known rubric; using neurips" });
  });
});
