import { notBuilt } from '../not-built.tsx';

export const TreePage = notBuilt('Tree', 'See the search tree from the terminal: svc status <checkpoint>.');
