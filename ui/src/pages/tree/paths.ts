import { checkpointApi } from '../../api.ts';
/** The tree the Tree page draws: each node's outline only (a 1,000-node run is about 250 KB, not 3 MB). */
export const treeSummaryPath = (run: string) => checkpointApi(run, '/summary?nodes=outline');
