import type { ComponentType } from 'react';
import type { Route } from '../route.ts';
import { ExperimentsPage } from './experiments/ExperimentsPage.tsx';
import { MemoryPage } from './memory/MemoryPage.tsx';
import { MonitorPage } from './monitor/MonitorPage.tsx';
import { notBuilt } from './not-built.tsx';

export type Page = { id: string; title: string; component: ComponentType<{ route: Route }> };

/** Every page of the dashboard, in the order of the navigation. */
export const PAGES: Page[] = [
  { id: 'experiments', title: 'Experiments', component: ExperimentsPage },
  { id: 'new', title: 'New experiment', component: notBuilt('New experiment', 'Start a run from the terminal: svc run experiment.md.') },
  { id: 'monitor', title: 'Monitor', component: MonitorPage },
  { id: 'tree', title: 'Tree', component: notBuilt('Tree', 'See the search tree from the terminal: svc status <checkpoint>.') },
  { id: 'results', title: 'Results', component: notBuilt('Results', "See a checkpoint in detail from the terminal: svc show <checkpoint>.") },
  { id: 'workflow', title: 'Workflow', component: notBuilt('Workflow', 'The workflow is workflow.yaml in the project; svc skills-list shows its skills.') },
  { id: 'settings', title: 'Settings', component: notBuilt('Settings', 'See and save settings from the terminal: svc settings.') },
  { id: 'benchmark', title: 'Benchmark', component: notBuilt('Benchmark', 'Run the benchmark from the terminal: svc bench --help.') },
  { id: 'memory', title: 'Memory', component: MemoryPage },
];

export const DEFAULT_PAGE = 'experiments';
