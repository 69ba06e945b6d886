import { type ComponentType, createElement, lazy } from 'react';
import type { Route } from '../route.ts';
import { ExperimentsPage } from './experiments/ExperimentsPage.tsx';
import { treeSummaryPath } from './tree/paths.ts';

type PageProps = { route: Route };
export type Page = {
  id: string;
  title: string;
  component: ComponentType<PageProps>;
  preload?: () => Promise<unknown>;
  /** What the page reads first at `route`, asked for before it is drawn (main.tsx). */
  firstReads?: (route: Route) => string[];
};

/**
 * A page whose code is fetched when it is first opened: the first page drawn does not wait for
 * the editor, chart and graph libraries the others use. `preload` fetches it ahead (main.tsx, for
 * the page the address names): a page already fetched is drawn at once, where React would first
 * show the fallback and then hold the page back for its fallback's minimum time.
 */
function later(load: () => Promise<ComponentType<PageProps>>): Pick<Page, 'component' | 'preload'> {
  let loaded: ComponentType<PageProps> | null = null;
  const preload = () => load().then((c) => (loaded = c));
  const Lazy = lazy(async () => ({ default: await load() }));
  const component = (props: PageProps) => createElement(loaded ?? Lazy, props);
  return { component, preload };
}

/** Every page of the dashboard, in the order of the navigation. */
export const PAGES: Page[] = [
  { id: 'experiments', title: 'Experiments', component: ExperimentsPage, firstReads: () => ['/api/checkpoints', '/api/active-checkpoint'] },
  { id: 'new', title: 'New experiment', ...later(async () => (await import('./new/NewExperimentPage.tsx')).NewExperimentPage) },
  { id: 'monitor', title: 'Monitor', ...later(async () => (await import('./monitor/MonitorPage.tsx')).MonitorPage) },
  {
    id: 'tree',
    title: 'Tree',
    ...later(async () => (await import('./tree/TreePage.tsx')).TreePage),
    firstReads: ({ parts: [run] }) => (run ? [treeSummaryPath(run)] : ['/api/active-checkpoint']),
  },
  { id: 'results', title: 'Results', ...later(async () => (await import('./results/ResultsPage.tsx')).ResultsPage) },
  { id: 'workflow', title: 'Workflow', ...later(async () => (await import('./workflow/WorkflowPage.tsx')).WorkflowPage) },
  { id: 'settings', title: 'Settings', ...later(async () => (await import('./settings/SettingsPage.tsx')).SettingsPage) },
  { id: 'benchmark', title: 'Benchmark', ...later(async () => (await import('./benchmark/BenchmarkPage.tsx')).BenchmarkPage) },
  { id: 'memory', title: 'Memory', ...later(async () => (await import('./memory/MemoryPage.tsx')).MemoryPage) },
];

export const DEFAULT_PAGE = 'experiments';
