import type { ComponentType } from 'react';
import type { Route } from '../route.ts';
import { ExperimentsPage } from './experiments/ExperimentsPage.tsx';
import { MonitorPage } from './monitor/MonitorPage.tsx';
import { notBuilt } from './not-built.tsx';

export type Page = { id: string; title: string; component: ComponentType<{ route: Route }> };

/** Every page of the dashboard, in the order of the navigation. */
export const PAGES: Page[] = [
  { id: 'experiments', title: 'Experiments', component: ExperimentsPage },
  { id: 'new', title: 'New experiment', component: notBuilt('New experiment', 'Start a run from the terminal: svc run <experiment.md>.') },
  { id: 'monitor', title: 'Monitor', component: MonitorPage },
  { id: 'tree', title: 'Tree', component: notBuilt('Tree', 'See the search tree from the terminal: svc status <checkpoint>.') },
  { id: 'results', title: 'Results', component: notBuilt('Results', "The checkpoint's files, paper and reviews are in its directory.") },
  { id: 'workflow', title: 'Workflow', component: notBuilt('Workflow', 'The workflow is workflow.yaml in the project.') },
  { id: 'settings', title: 'Settings', component: notBuilt('Settings', 'Settings are read from .env and the SVC_* environment.') },
  { id: 'benchmark', title: 'Benchmark', component: notBuilt('Benchmark', 'Run the benchmark from the terminal: svc bench --help.') },
  { id: 'memory', title: 'Memory', component: notBuilt('Memory', "One node's memory is at /memory/<node_id> for the active checkpoint.") },
];

export const DEFAULT_PAGE = 'experiments';
