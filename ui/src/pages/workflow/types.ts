// The answers the Workflow page reads (GET /api/workflow/flow, /api/workflow, /api/skills, /api/skill/<name>).

export type StageList = 'bfts_pipeline' | 'pipeline';
export type EdgeKind = 'depends_on' | 'loop_back_to';

export type FlowNode = { id: string; stage: string; group: 'bfts' | 'pipeline'; list: StageList; skill: string; tool: string; phase: string | string[] | null; enabled: boolean };
/** depends_on: from the stage depended on to the one that waits; loop_back_to: from the looping stage to its target. */
export type FlowEdge = { from: string; to: string; kind: EdgeKind };
export type Flow = { nodes: FlowNode[]; edges: FlowEdge[] };

/** One entry of a stage list as workflow.yaml has it. */
export type Stage = {
  stage: string;
  skill?: string;
  tool?: string;
  description?: string;
  phase?: string | string[];
  inputs?: Record<string, unknown>;
  outputs?: { file?: string };
  depends_on?: string | string[];
  skip_if_exists?: string;
  loop_back_to?: string;
  loop_threshold?: number;
  loop_max_iterations?: number;
  loop_when_result_key?: string;
  enabled?: boolean;
};

export type WorkflowView = {
  path: string;
  source: string;
  workflow: { bfts_pipeline: Stage[]; pipeline: Stage[]; disabled_tools?: string[] } & Record<string, unknown>;
  yaml: string;
};

export type DefaultWorkflow = { yaml: string };

export type SkillSummary = {
  name: string;
  phases: string[];
  path: string;
  builtin: boolean;
  found: boolean;
  enabled: boolean;
  description: string;
  uses_model: boolean | null;
  env: string[];
  tool_count: number | null;
  problem: string | null;
};

export type ToolSummary = { name: string; description: string; disabled: boolean };
export type SkillDetail = SkillSummary & { tools: ToolSummary[] };
