/**
 * The system components some tests use (LaTeX, an SSH server, Slurm, python3, script, Chromium). `npm test`
 * installs them first where it can (scripts/test-setup.sh); where one is still missing, the tests
 * that need it are skipped, never failed, and one line per test file names it and how to get it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The browser the dashboard's tests drive: Debian's, not one downloaded by playwright. */
export const CHROMIUM = '/usr/bin/chromium';

type Component = { what: string; present: () => boolean; how: string };

const onPath = (...commands: string[]) => () => commands.every((c) => Bun.which(c) !== null);

/** Whether TeX finds every one of these files. */
function texFiles(...names: string[]): boolean {
  const r = Bun.spawnSync(['kpsewhich', ...names], { stdout: 'pipe', stderr: 'ignore' });
  return r.stdout.toString().trim().split('\n').filter(Boolean).length === names.length;
}

/** Whether the single-node cluster answers with a usable node. */
function slurmNodeUp(): boolean {
  if (!Bun.which('sinfo')) return false;
  const r = Bun.spawnSync(['sinfo', '-h', '-o', '%t'], { stdout: 'pipe', stderr: 'ignore' });
  return r.exitCode === 0 && /^(idle|mix|alloc)$/m.test(r.stdout.toString());
}

/** The cluster is up, or it is started here (as root with apt-get: the packages come too). */
function slurmReady(): boolean {
  if (slurmNodeUp()) return true;
  if (process.getuid?.() !== 0 || Bun.which('apt-get') === null) return false;
  Bun.spawnSync(['bash', join(import.meta.dir, 'slurm', 'start.sh')], { stdout: 'ignore', stderr: 'ignore' });
  return slurmNodeUp();
}

const COMPONENTS = {
  latex: { what: 'latexmk and pdflatex', present: onPath('latexmk', 'pdflatex'), how: 'apt-get install latexmk texlive-latex-base' },
  venues: {
    what: "the venue templates' classes and fonts (acmart, IEEEtran, llncs, Times, Latin Modern)",
    present: () => onPath('latexmk', 'pdflatex', 'kpsewhich')() && texFiles('acmart.cls', 'IEEEtran.cls', 'llncs.cls', 'xstring.sty', 'ptmr8t.tfm', 'lmodern.sty'),
    how: 'apt-get install texlive-publishers texlive-latex-extra texlive-fonts-recommended lmodern',
  },
  pdftools: { what: 'pdfinfo and pdftotext', present: onPath('pdfinfo', 'pdftotext'), how: 'apt-get install poppler-utils' },
  sshd: { what: 'an OpenSSH server and client', present: () => existsSync('/usr/sbin/sshd') && Bun.which('ssh') !== null && Bun.which('ssh-keygen') !== null, how: 'apt-get install openssh-server openssh-client' },
  slurm: { what: 'a Slurm cluster', present: slurmReady, how: 'run npm test as root on Debian or Ubuntu: it starts a single-node cluster (test/support/slurm/start.sh)' },
  python3: { what: 'python3', present: onPath('python3'), how: 'apt-get install python3-minimal' },
  rsvg: { what: 'rsvg-convert (SVG to vector PDF)', present: onPath('rsvg-convert'), how: 'apt-get install librsvg2-bin' },
  poppler: { what: 'pdfinfo, pdftotext and pdfimages', present: onPath('pdfinfo', 'pdftotext', 'pdfimages'), how: 'apt-get install poppler-utils' },
  script: { what: 'script (a pseudo-terminal)', present: onPath('script'), how: 'apt-get install bsdutils' },
  chromium: { what: "Debian's Chromium (/usr/bin/chromium)", present: () => existsSync(CHROMIUM), how: 'apt-get install chromium' },
  zsh: { what: 'zsh', present: onPath('zsh'), how: 'apt-get install zsh' },
  fish: { what: 'fish', present: onPath('fish'), how: 'apt-get install fish' },
  tmpfs: { what: 'mounting a small tmpfs (a disk that fills up)', present: () => process.getuid?.() === 0 && Bun.which('mount') !== null && Bun.which('umount') !== null, how: 'run the tests as root' },
} satisfies Record<string, Component>;

export type ComponentName = keyof typeof COMPONENTS;

const known = new Map<ComponentName, boolean>();

/**
 * True when `name` is missing here: pass it to `test.skipIf` / `describe.skipIf`. The first time
 * a test file finds it missing, one line says which tests are skipped and how to get it.
 */
export function lacks(name: ComponentName): boolean {
  let present = known.get(name);
  if (present === undefined) {
    const c: Component = COMPONENTS[name];
    present = c.present();
    known.set(name, present);
    if (!present) console.error(`skipped: the tests that need ${c.what}, which this machine lacks (${c.how})`);
  }
  return !present;
}

/** A tmpfs of `kib` KiB mounted at a new directory below `parent`, and how to take it away. */
export function smallDisk(parent: string, kib: number): { dir: string; remove: () => void } {
  const dir = join(parent, `disk-${kib}k`);
  mkdirSync(dir);
  const r = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`mount tmpfs at ${dir}: ${r.stderr.toString().trim()}`);
  return { dir, remove: () => void Bun.spawnSync(['umount', '-l', dir]) };
}
