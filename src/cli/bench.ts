import { defineCommand } from 'citty';
import { benchPaperCommands } from './bench-papers.ts';

export default defineCommand({
  meta: { description: 'Reproducibility benchmark: the paper registry and arXiv metadata' },
  subCommands: { ...benchPaperCommands },
});
