import { type ComponentType, lazy } from 'react';
import type { Route } from '../route.ts';
import { ExperimentsPage } from './experiments/ExperimentsPage.tsx';

type PageProps = { route: Route };
export type Page = { id: string; title: string; component: ComponentType<PageProps> };

/**
 * A page whose code is fetched when it is first opened: the first page drawn does not wait for
 * the editor, chart and graph libraries the others use.
 */
function later(load: () => Promise<ComponentType<PageProps>>): ComponentType<PageProps> {
  return lazy(async () => ({ default: await load() }));
}

/** Every page of the dashboard, in the order of the navigation. */
export const PAGES: Page[] = [
  { id: 'experiments', title: 'Experiments', component: ExperimentsPage },
  { id: 'new', title: 'New experiment', component: later(async () => (await import('./new/NewExperimentPage.tsx')).NewExperimentPage) },
  { id: 'monitor', title: 'Monitor', component: later(async () => (await import('./monitor/MonitorPage.tsx')).MonitorPage) },
  { id: 'tree', title: 'Tree', component: later(async () => (await import('./tree/TreePage.tsx')).TreePage) },
  { id: 'results', title: 'Results', component: later(async () => (await import('./results/ResultsPage.tsx')).ResultsPage) },
  { id: 'workflow', title: 'Workflow', component: later(async () => (await import('./workflow/WorkflowPage.tsx')).WorkflowPage) },
  { id: 'settings', title: 'Settings', component: later(async () => (await import('./settings/SettingsPage.tsx')).SettingsPage) },
  { id: 'benchmark', title: 'Benchmark', component: later(async () => (await import('./benchmark/BenchmarkPage.tsx')).BenchmarkPage) },
  { id: 'memory', title: 'Memory', component: later(async () => (await import('./memory/MemoryPage.tsx')).MemoryPage) },
];

export const DEFAULT_PAGE = 'experiments';
