import { notBuilt } from '../not-built.tsx';

export const ResultsPage = notBuilt('Results', 'See a checkpoint in detail from the terminal: svc show <checkpoint>.');
