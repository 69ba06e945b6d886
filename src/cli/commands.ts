import type { CommandEntry } from './dispatch.ts';

/**
 * The command table: `svc --help`, dispatch and the shell completion scripts all read it.
 * Commands load on demand so that `svc --help` and `svc status` start fast.
 */
export const COMMANDS: Record<string, CommandEntry> = {
  run: { description: 'run a research experiment: ideas, then the tree search (--replay for a recorded run, offline)', load: () => import('./run.ts').then((m) => m.default) },
  resume: { description: 'continue a run from its checkpoint', load: () => import('./resume.ts').then((m) => m.default) },
  paper: { description: 'run the post-search pipeline of a checkpoint (--stage for one stage)', load: () => import('./paper.ts').then((m) => m.default) },
  status: { description: 'show a checkpoint: node tree, counts, best node, cost', load: () => import('./status.ts').then((m) => m.default), jit: false },
  projects: { description: 'list checkpoints with status, nodes, best score and cost', load: () => import('./projects.ts').then((m) => m.default) },
  show: { description: 'show one checkpoint in detail', load: () => import('./show.ts').then((m) => m.default) },
  delete: { description: 'delete a checkpoint and its experiments directory', load: () => import('./delete.ts').then((m) => m.default) },
  settings: { description: 'show effective settings and their sources, or save new ones', load: () => import('./settings.ts').then((m) => m.default) },
  viz: { description: 'start the dashboard (web UI and HTTP API) on 127.0.0.1:8765', load: () => import('./viz.ts').then((m) => m.default) },
  'skills-list': { description: 'list the skills of the workflow and their phases', load: () => import('./skills-list.ts').then((m) => m.default) },
  skill: { description: 'serve a built-in skill over MCP stdio (svc skill serve <name>), or orchestrator-skill as JSON over HTTP (--http)', load: () => import('./skill.ts').then((m) => m.default) },
  memory: { description: 'memory backend: health, backup, restore, migrate, local server (start-local, stop-local, serve)', load: () => import('./memory.ts').then((m) => m.default) },
  clone: { description: 'clone an artifact bundle and verify it against its manifest.lock (file://, https://, svc://, hosting-release:, doi:)', load: () => import('./clone.ts').then((m) => m.default) },
  ear: { description: 'experiment artifact bundles: curate, status, publish, promote', load: () => import('./ear.ts').then((m) => m.default) },
  migrate: { description: 'migrate checkpoint records: node-reports rebuilds node_report.json (--overwrite)', load: () => import('./migrate.ts').then((m) => m.default) },
  bench: { description: 'reproducibility benchmark: import, list and delete papers, license assessment, arXiv metadata; run, status, logs, results and cost of jobs', load: () => import('./bench.ts').then((m) => m.default) },
  registry: { description: 'artifact registry: serve bundles (svc registry serve), issue, list and revoke tokens', load: () => import('./registry.ts').then((m) => m.default) },
  doctor: { description: 'check what svc will use here and whether it works: models, memory, executor, containers, LaTeX, disk, registry (--json)', load: () => import('./doctor.ts').then((m) => m.default) },
  completion: { description: 'print a shell completion script: svc completion bash|zsh|fish', load: () => import('./completion.ts').then((m) => m.completionCommand(COMMANDS)), jit: false },
};
