import type { ComponentType } from 'react';
import type { Route } from '../route.ts';
import { BenchmarkPage } from './benchmark/BenchmarkPage.tsx';
import { ExperimentsPage } from './experiments/ExperimentsPage.tsx';
import { MemoryPage } from './memory/MemoryPage.tsx';
import { MonitorPage } from './monitor/MonitorPage.tsx';
import { NewExperimentPage } from './new/NewExperimentPage.tsx';
import { ResultsPage } from './results/ResultsPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { TreePage } from './tree/TreePage.tsx';
import { WorkflowPage } from './workflow/WorkflowPage.tsx';

export type Page = { id: string; title: string; component: ComponentType<{ route: Route }> };

/** Every page of the dashboard, in the order of the navigation. */
export const PAGES: Page[] = [
  { id: 'experiments', title: 'Experiments', component: ExperimentsPage },
  { id: 'new', title: 'New experiment', component: NewExperimentPage },
  { id: 'monitor', title: 'Monitor', component: MonitorPage },
  { id: 'tree', title: 'Tree', component: TreePage },
  { id: 'results', title: 'Results', component: ResultsPage },
  { id: 'workflow', title: 'Workflow', component: WorkflowPage },
  { id: 'settings', title: 'Settings', component: SettingsPage },
  { id: 'benchmark', title: 'Benchmark', component: BenchmarkPage },
  { id: 'memory', title: 'Memory', component: MemoryPage },
];

export const DEFAULT_PAGE = 'experiments';
