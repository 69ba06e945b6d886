import type { SkillDef } from '../../mcp/tool.ts';
import { analyzeResults } from './analyze-results.ts';
import { plot } from './plot.ts';
import { statisticalTest } from './statistical-test.ts';

const benchmarkSkill: SkillDef = {
  name: 'benchmark-skill',
  description: 'Summarise results files, draw charts as SVG and PNG, and test whether two samples differ.',
  phases: ['bfts'],
  env: ['SVC_WORK_DIR'],
  usesModel: false,
  tools: [analyzeResults, plot, statisticalTest],
};

export default benchmarkSkill;
