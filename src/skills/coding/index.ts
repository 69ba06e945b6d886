import type { SkillDef } from '../../mcp/tool.ts';
import { emitResults } from './emit-results.ts';
import { readFile } from '../../coding/read-file.ts';
import { runBash } from '../../coding/run-bash.ts';
import { runCode } from '../../coding/run-code.ts';
import { writeCode } from '../../coding/write-code.ts';

const codingSkill: SkillDef = {
  name: 'coding-skill',
  description: 'Write, run and read code in the node work directory, and record the node results (results.json).',
  phases: ['bfts', 'reproduce'],
  env: ['SVC_WORK_DIR', 'SVC_CHECKPOINT_DIR'],
  usesModel: false,
  tools: [writeCode, runCode, runBash, readFile, emitResults],
};

export default codingSkill;
