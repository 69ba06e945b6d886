import type { SkillDef } from '../../mcp/tool.ts';
import { addMemory, clearNodeMemory, getNodeMemory, searchMemory } from './node-memory-tools.ts';
import { auditMemory, consolidateNodeMemory } from './provenance-tools.ts';
import { getExperimentContext, getVerifiedContext, searchResearchMemory } from './research-tools.ts';
import { addExperimentResult, addFailureCase, addProcedureMemory, addReflection, addReproducibilityEvent } from './typed-writers.ts';

/**
 * Research memory of the run's checkpoint, scoped by node of the search tree: a node writes only
 * its own scope and reads only its ancestors'. How a call names its node: current-node.ts.
 */
const memorySkill: SkillDef = {
  name: 'memory-skill',
  description: "Node-scoped research memory of the run's checkpoint: notes and typed results a node leaves for its descendants, ancestor-restricted search, verified evidence for the paper.",
  phases: ['bfts'],
  env: [
    'SVC_CHECKPOINT_DIR',
    'SVC_CURRENT_NODE_ID',
    'SVC_WORK_DIR',
    'MEMBACKEND_BASE_URL',
    'MEMBACKEND_API_KEY',
    'SVC_MEMORY_LETTA_TIMEOUT_S',
    'SVC_MEMORY_LETTA_OVERFETCH',
    'SVC_MEMORY_ACCESS_LOG',
    'SVC_MEMORY_ACCESS_LOG_MAX_MB',
  ],
  usesModel: false,
  tools: [
    addMemory,
    searchMemory,
    getNodeMemory,
    clearNodeMemory,
    getExperimentContext,
    addExperimentResult,
    addFailureCase,
    addProcedureMemory,
    addReflection,
    addReproducibilityEvent,
    searchResearchMemory,
    getVerifiedContext,
    auditMemory,
    consolidateNodeMemory,
  ],
};

export default memorySkill;
