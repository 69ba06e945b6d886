import { notBuilt } from '../not-built.tsx';

export const NewExperimentPage = notBuilt('New experiment', 'Start a run from the terminal: svc run experiment.md.');
