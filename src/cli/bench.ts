import { defineCommand } from 'citty';
import { benchJobCommands } from './bench-jobs.ts';
import { benchPaperCommands } from './bench-papers.ts';

export default defineCommand({
  meta: { description: 'Reproducibility benchmark: the paper registry, arXiv metadata, and jobs that run papers through the three stages' },
  subCommands: { ...benchPaperCommands, ...benchJobCommands },
});
