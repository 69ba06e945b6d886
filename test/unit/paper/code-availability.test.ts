import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../src/core/errors.ts';
import { bundleFacts, injectCodeAvailability } from '../../../src/paper/code-availability.ts';
import { compilePaper } from '../../../src/paper/compile.ts';
import { checkFormat } from '../../../src/paper/format-check.ts';
import { findVenue } from '../../../src/paper/venues.ts';
import { lacks } from '../../support/components.ts';
import { pdfText, writePaper } from '../../support/paper.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const SHA = 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const FACTS = { ref: 'svc://0123456789abcdef', sha256: SHA, doi: '10.5281/zenodo.1234567', license_id: 'MIT' };
const NONE = { ref: null, sha256: null, doi: null, license_id: null };
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };

let dir: string;
let tex: string;
beforeEach(() => {
  dir = tempDir();
  tex = writePaper(join(dir, 'paper'), 'sc');
});
afterEach(() => removeDir(dir));

describe('inject_code_availability', () => {
  test('a section naming the bundle, before the references marker and the bibliography', () => {
    const out = injectCodeAvailability(tex, FACTS);
    expect(out.statement).toBe(
      'The code and data behind the results of this paper are available as the artifact bundle \\texttt{svc:\\allowbreak{}/\\allowbreak{}/\\allowbreak{}0123456789abcdef} ' +
        '(SHA-256 \\texttt{a3f1c2d4e5b60718\\allowbreak{}293a4b5c6d7e8f90\\allowbreak{}a1b2c3d4e5f60718\\allowbreak{}293a4b5c6d7e8f90}; ' +
        'DOI \\texttt{10.\\allowbreak{}5281/\\allowbreak{}zenodo.\\allowbreak{}1234567}), under the MIT license.',
    );
    expect(out).toMatchObject({ tex_path: tex, replaced: false, ...FACTS });
    const text = readFileSync(tex, 'utf8');
    expect(text).toContain(`\\section*{Code availability}\n{\\raggedright\n${out.statement}\\par}\n%% svc:code-availability end\n\n\\svcreferences\n\\bibliographystyle{IEEEtran}`);
  });

  test('idempotent: a second call with the same facts leaves the file as it was; new facts replace the old section', () => {
    injectCodeAvailability(tex, FACTS);
    const once = readFileSync(tex, 'utf8');
    expect(injectCodeAvailability(tex, FACTS).replaced).toBe(true);
    expect(readFileSync(tex, 'utf8')).toBe(once);
    injectCodeAvailability(tex, { ...FACTS, doi: null, ref: 'doi:10.5281/zenodo.7654321' });
    const text = readFileSync(tex, 'utf8');
    expect(text.match(/Code availability/g)).toHaveLength(1);
    expect(text).not.toContain('1234567');
    expect(text).toContain('zenodo.\\allowbreak{}7654321');
  });

  test('absent facts are left out of the sentence', () => {
    expect(injectCodeAvailability(tex, { ...NONE, sha256: SHA.toUpperCase() }).statement).toBe(
      'The code and data behind the results of this paper are available as an artifact bundle (SHA-256 \\texttt{a3f1c2d4e5b60718\\allowbreak{}293a4b5c6d7e8f90\\allowbreak{}a1b2c3d4e5f60718\\allowbreak{}293a4b5c6d7e8f90}).',
    );
    expect(injectCodeAvailability(tex, { ...NONE, license_id: 'Apache-2.0', doi: 'https://doi.org/10.5281/zenodo.1' }).statement).toBe(
      'The code and data behind the results of this paper are available as an artifact bundle (DOI \\texttt{10.\\allowbreak{}5281/\\allowbreak{}zenodo.\\allowbreak{}1}), under the Apache-2.0 license.',
    );
  });

  test('a paper without svc marker: before \\bibliographystyle; without a bibliography: before \\end{document}', () => {
    writeFileSync(tex, '\\documentclass{article}\n\\bibliographystyle{plain}\n\\begin{document}\nText.\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n');
    injectCodeAvailability(tex, FACTS);
    expect(readFileSync(tex, 'utf8')).toMatch(/^\\documentclass\{article\}\n\\bibliographystyle\{plain\}\n\\begin\{document\}\nText\.\n%% svc:code-availability [^\n]*\n\\section\*\{Code availability\}\n\{\\raggedright\n[^\n]+\\par\}\n%% svc:code-availability end\n\n\\bibliographystyle\{plain\}\n\\bibliography\{refs\}\n/);
    writeFileSync(tex, '\\documentclass{article}\n\\begin{document}\nText.\\end{document}\n');
    injectCodeAvailability(tex, FACTS);
    expect(readFileSync(tex, 'utf8')).toMatch(/Text\.\n%% svc:code-availability [\s\S]*end\n\n\\end\{document\}\n$/);
  });

  test.each([
    ['a digest that is not SHA-256', { ...FACTS, sha256: 'abc' }, "sha256 'abc' is not a SHA-256 digest"],
    ['a DOI that is not one', { ...FACTS, doi: 'zenodo-1' }, "doi 'zenodo-1' is not a DOI"],
    ['a license that is no SPDX identifier', { ...FACTS, license_id: 'MIT; rm -rf' }, "license_id 'MIT; rm -rf' is not an SPDX license identifier"],
    ['a ref with a line break', { ...FACTS, ref: 'svc://a\nb' }, "ref 'svc://a\\nb' is not a bundle reference"],
    ['nothing to state', NONE, 'nothing to state: no ref, sha256, doi or license_id given, and the checkpoint has no curated or published bundle'],
  ])('%s: a clear error, the file untouched', (_what, facts, message) => {
    const before = readFileSync(tex, 'utf8');
    expect(() => injectCodeAvailability(tex, facts)).toThrow(InputError);
    expect(() => injectCodeAvailability(tex, facts)).toThrow(message);
    expect(readFileSync(tex, 'utf8')).toBe(before);
    expect(readdirSync(join(dir, 'paper')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('a tex_path that is not there, or not .tex; a document with neither bibliography nor end', () => {
    expect(() => injectCodeAvailability(join(dir, 'none.tex'), FACTS)).toThrow(NotFoundError);
    expect(() => injectCodeAvailability(join(dir, 'paper', 'refs.bib'), FACTS)).toThrow("is not a .tex file");
    writeFileSync(join(dir, 'section.tex'), '\\section{Intro}\nText.\n');
    expect(() => injectCodeAvailability(join(dir, 'section.tex'), FACTS)).toThrow('has neither a bibliography nor \\end{document}');
    expect(readFileSync(join(dir, 'section.tex'), 'utf8')).toBe('\\section{Intro}\nText.\n');
  });

  test.skipIf(lacks('venues') || lacks('pdftools'))('the section compiles in a two-column venue without overfull lines', async () => {
    injectCodeAvailability(tex, { ...FACTS, ref: 'hosting-release:an-organisation/a-rather-long-repository-name@v1.0.0' });
    const built = await compilePaper(join(dir, 'paper'), 'main.tex', env);
    // IEEEtran sets the heading in small capitals
    expect(pdfText(built.pdf_path).replace(/\s+/g, '').toUpperCase()).toContain('CODEAVAILABILITY');
    const report = await checkFormat(findVenue('sc'), built.pdf_path, env, null);
    expect(report.findings).toEqual([]);
  });
});

describe('what the checkpoint knows of its bundle', () => {
  const lock = (sha: string) => JSON.stringify({ bundle_sha256: sha, files: [], publish: { license: 'MIT' } });

  test('the curated manifest.lock alone: its digest and license', () => {
    mkdirSync(join(dir, 'ear_published'));
    writeFileSync(join(dir, 'ear_published', 'manifest.lock'), lock(SHA));
    expect(bundleFacts(dir)).toEqual({ ref: null, sha256: SHA, doi: null, license_id: 'MIT' });
  });

  test('a publish record: its ref and digest, and the DOI it minted; a dry run names nothing', () => {
    const record = { backend: 'hosting-doi', ref: 'doi:10.5281/zenodo.42', bundle_sha256: SHA, visibility: 'public', dry_run: false, extra: { doi: '10.5281/zenodo.42' } };
    writeFileSync(join(dir, 'publish_record.json'), JSON.stringify(record));
    expect(bundleFacts(dir)).toEqual({ ref: 'doi:10.5281/zenodo.42', sha256: SHA, doi: '10.5281/zenodo.42', license_id: null });
    writeFileSync(join(dir, 'publish_record.json'), JSON.stringify({ ...record, dry_run: true }));
    expect(bundleFacts(dir)).toEqual(NONE);
  });
});
