import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeCheckpoint } from './checkpoint.ts';
import { removeDir, tempDir } from './svc.ts';
import { startViz, type Viz } from './viz.ts';

export const ID = '20260101000000_TestExp';
export const OTHER = '20250101000000_NoPaper';
export const PKL = new Uint8Array([0x80, 0x04, 0x95, ...new Array(100).fill(0)]);
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new Array(50).fill(0)]);
export const GOOD_TEX = '\\documentclass{article}\n\\begin{document}\nHello, paper.\n\\end{document}\n';
export const BROKEN_TEX = '\\documentclass{article}\n\\begin{document}\n\\undefinedmacro\n\\end{document}\n';
export const LIMIT = 10 * 1024 * 1024;

export type Explorer = { dir: string; ws: string; ck: string; viz: Viz; stop: () => Promise<void> };

export function put(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), data);
  }
}

/**
 * The reference implementation's "explorer checkpoint", next to a checkpoint without a paper and a
 * node's work directory, with links leading out; `svc viz` started on its workspace.
 */
export async function startExplorer(): Promise<Explorer> {
  const dir = tempDir();
  const ws = join(dir, 'workspace');
  const ck = writeCheckpoint(join(ws, 'checkpoints'), { runId: ID, nodes: 3 });
  put(ck, {
    'results.json': '{"score": 0.5}',
    'code/main.py': "print('hello')\n",
    'code/utils.py': 'def helper(): pass\n',
    'model.pkl': PKL,
    'paper/full_paper.tex': GOOD_TEX,
    'paper/figures/fig_01.png': PNG,
    'paper/figures/diagram.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '__pycache__/main.cpython-311.pyc': new Uint8Array([0x55, 0x0d, 0, 0]),
    '.git/config': '[core]\n',
    'broken/main.tex': BROKEN_TEX,
    'big.bin': new Uint8Array(LIMIT + 1),
  });
  writeCheckpoint(join(ws, 'checkpoints'), { runId: OTHER, nodes: 1 });
  put(join(ws, 'experiments', ID, 'node_abc'), {
    'data.csv': 'a,b\n1,2\n',
    'script.py': 'print(1)\n',
    'model.pkl': PKL,
    'tree.json': '{}',
    'node_report.json': '{}',
    'experiment.md': '# goal\n',
    'ari.log': 'log\n',
    'run.log': 'log\n',
    'memory_access.2.jsonl': '{}\n',
    'out/result.txt': 'ok\n',
  });
  writeFileSync(join(dir, 'outside.txt'), 'outside the checkpoint');
  symlinkSync(join(dir, 'outside.txt'), join(ck, 'leak.txt'));
  symlinkSync(dir, join(ck, 'leakdir'));
  const viz = await startViz([ws], { cwd: dir });
  const stop = async () => {
    await viz.stop();
    removeDir(dir);
  };
  return { dir, ws, ck, viz, stop };
}

export const api = (path: string) => `/api/checkpoint/${ID}${path}`;
