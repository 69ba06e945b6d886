import { version } from '../package.json';
import { type CommandEntry, dispatch } from './cli/dispatch.ts';
import { log } from './core/log.ts';

// Commands load on demand so that `svc --help` and `svc status` start fast.
const COMMANDS: Record<string, CommandEntry> = {
  run: { description: 'run a research experiment: ideas, then the tree search (--replay for a recorded run, offline)', load: () => import('./cli/run.ts').then((m) => m.default) },
  resume: { description: 'continue a run from its checkpoint', load: () => import('./cli/resume.ts').then((m) => m.default) },
  paper: { description: 'run the post-search pipeline of a checkpoint (--stage for one stage)', load: () => import('./cli/paper.ts').then((m) => m.default) },
  status: { description: 'show a checkpoint: node tree, counts, best node, cost', load: () => import('./cli/status.ts').then((m) => m.default), jit: false },
  projects: { description: 'list checkpoints with status, nodes, best score and cost', load: () => import('./cli/projects.ts').then((m) => m.default) },
  show: { description: 'show one checkpoint in detail', load: () => import('./cli/show.ts').then((m) => m.default) },
  delete: { description: 'delete a checkpoint and its experiments directory', load: () => import('./cli/delete.ts').then((m) => m.default) },
  settings: { description: 'show effective settings and their sources, or save new ones', load: () => import('./cli/settings.ts').then((m) => m.default) },
  viz: { description: 'start the dashboard (web UI and HTTP API) on 127.0.0.1:8765', load: () => import('./cli/viz.ts').then((m) => m.default) },
  'skills-list': { description: 'list the skills of the workflow and their phases', load: () => import('./cli/skills-list.ts').then((m) => m.default) },
  skill: { description: 'serve a built-in skill over MCP stdio (svc skill serve <name>), or orchestrator-skill as JSON over HTTP (--http)', load: () => import('./cli/skill.ts').then((m) => m.default) },
  memory: { description: 'memory backend: health, backup, restore, migrate, local server (start-local, stop-local, serve)', load: () => import('./cli/memory.ts').then((m) => m.default) },
  clone: { description: 'clone an artifact bundle and verify it against its manifest.lock (file://, https://, svc://, hosting-release:, doi:)', load: () => import('./cli/clone.ts').then((m) => m.default) },
  ear: { description: 'experiment artifact bundles: curate, status, publish, promote', load: () => import('./cli/ear.ts').then((m) => m.default) },
  migrate: { description: 'migrate checkpoint records: node-reports rebuilds node_report.json (--overwrite)', load: () => import('./cli/migrate.ts').then((m) => m.default) },
  bench: { description: 'reproducibility benchmark: import, list and delete papers, license assessment, arXiv metadata; run, status, logs, results and cost of jobs', load: () => import('./cli/bench.ts').then((m) => m.default) },
  registry: { description: 'artifact registry: serve bundles (svc registry serve), issue, list and revoke tokens', load: () => import('./cli/registry.ts').then((m) => m.default) },
  doctor: { description: 'check what svc will use here and whether it works: models, memory, executor, containers, LaTeX, disk, registry (--json)', load: () => import('./cli/doctor.ts').then((m) => m.default) },
};

function rootHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(width)}  ${c.description}`);
  return `svc ${version}: research automation in one binary

Usage: svc <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show help (also: svc <command> --help)
  -v, --version  show the version
`;
}

// `svc status big | head` closes the pipe early: that is the reader's choice, not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') log.error(`cannot write output: ${err.code ?? err.message}`);
  process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : 1);
});

process.exitCode = await dispatch(COMMANDS, process.argv.slice(2), rootHelp, version);
