import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clampLeaves, suggestLeafCount, texProse, wordCount } from '../../../../src/replicate/paper.ts';
import { suggestTargetLeafCountTool } from '../../../../src/skills/replicate/generate-rubric.ts';
import { callTool } from '../coding/tool-call.ts';
import { type Fixture, replicateFixture } from './replicate-env.ts';

let f: Fixture;
beforeEach(() => {
  f = replicateFixture();
});
afterEach(() => f.stop());

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('suggest_target_leaf_count', () => {
  test('one leaf per 75 words, within 50..400', async () => {
    expect(suggestLeafCount(words(75 * 120))).toEqual({ words: 9000, target_leaf_count: 120 });
    expect(suggestLeafCount(words(100))).toEqual({ words: 100, target_leaf_count: 50 });
    expect(suggestLeafCount(words(75 * 1000))).toEqual({ words: 75_000, target_leaf_count: 400 });
    expect(suggestLeafCount('')).toEqual({ words: 0, target_leaf_count: 50 });
    expect([clampLeaves(10), clampLeaves(1000), clampLeaves(77)]).toEqual([50, 400, 77]);
    // punctuation alone is no word
    expect(wordCount('a — b , c')).toBe(3);
  });

  test('the tool: paper_text, or a .tex read as its prose, with no model call', async () => {
    expect(await callTool(suggestTargetLeafCountTool, { paper_text: words(75 * 60) }, f.env())).toEqual({ words: 4500, target_leaf_count: 60 });
    writeFileSync(join(f.ckpt, 'paper', 'main.tex'), `\\documentclass{article}\n\\begin{document}\n% a comment of many words that are not the paper\n${words(75 * 80)}\n\\end{document}\n`);
    expect(await callTool(suggestTargetLeafCountTool, { paper_path: 'paper/main.tex' }, f.env())).toEqual({ words: 6000, target_leaf_count: 80 });
    expect(f.server.requests).toHaveLength(0);
  });
});

test('a LaTeX paper is read as its prose with the claim anchors printed, as the PDF shows them', () => {
  const tex = '\\documentclass{article}\n\\newcommand{\\svcclaim}[2]{#2}\n\\begin{document}\nThe best needs \\svcclaim{best.comparisons}{30{,}850} comparisons, \\textbf{32.9} times fewer. % not this\n\\end{document}\n';
  const prose = texProse(tex).replace(/\s+/g, ' ').trim();
  expect(prose).toBe('The best needs 30,850 comparisons, 32.9 times fewer.');
});
