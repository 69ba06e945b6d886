import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The demo's Shell-sort paper, with the numbers its programs print, as a real PDF made by pdflatex in `dir`. */
export function paperPdf(dir: string): string {
  const tex = [
    '\\documentclass[10pt]{article}',
    '\\usepackage[paperwidth=40cm,paperheight=20cm,margin=1cm]{geometry}',
    '\\begin{document}',
    '\\section*{Fewer comparisons with geometric Shell sort}',
    'Each configuration is one program that sorts the same fixed pseudo-random array and counts every comparison of two elements exactly.\n',
    'The baseline is plain insertion sort. The Shell sort variants use gaps that shrink by a constant ratio down to one: ratio 2.2, ratio 3 and ratio 4.\n',
    'The best configuration needs 32,617 comparisons, against 1,013,583 for insertion sort: 31.1 times fewer.\n',
    'The best of them, Shell sort, gap ratio 2.2, reached 32,617 (the others fixed: algorithm = shell, seed = 42, n = 2000).',
    '\\end{document}',
    '',
  ];
  writeFileSync(join(dir, 'paper.tex'), tex.join('\n'));
  const r = Bun.spawnSync(['pdflatex', '-interaction=nonstopmode', '-halt-on-error', 'paper.tex'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`pdflatex failed: ${r.stdout.toString().slice(-500)}`);
  return join(dir, 'paper.pdf');
}
