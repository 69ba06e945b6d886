import { Type as T } from '@sinclair/typebox';
import { Phase } from './workflow.ts';

// The request bodies of the dashboard API (`svc viz`), as its routes validate them. A body may
// carry fields a schema does not name (the ARI web UI sends its own), and they are ignored; a body
// that must not be mistaken (publishing, curation) is closed, and an unknown field is refused.

/** The options of a body schema that lets fields it does not name pass. */
const OPEN = { additionalProperties: true };

/** POST /api/ear/<run_id>/publish-yaml: the file's text, or its keys (one of the two). */
export const PublishYamlBody = T.Object({
  yaml: T.Optional(T.String({ maxLength: 1_000_000, description: 'publish.yaml as text' })),
  config: T.Optional(T.Record(T.String(), T.Unknown(), { description: 'publish.yaml as keys' })),
}, OPEN);

/** POST /api/ear/<run_id>/curate: optional; no body curates without listing files. */
export const CurateBody = T.Object(
  { show_files: T.Optional(T.Boolean({ description: 'list the curated files in the answer' })) },
  { additionalProperties: false },
);

/** POST /api/publish/settings: publish keys to set (null removes one); never a token. */
export const PublishSettingsBody = T.Record(T.String(), T.Unknown(), { maxProperties: 100 });

/** POST /api/publish/<run_id>: a JSON object is required (send {} for the defaults), so a malformed body never publishes. */
export const PublishBody = T.Object(
  {
    backend: T.Optional(T.String({ maxLength: 100 })),
    visibility: T.Optional(T.String({ maxLength: 100 })),
    dry_run: T.Optional(T.Boolean()),
    consent: T.Optional(T.Boolean({ description: 'required to send the bundle off this machine, unless dry_run' })),
  },
  { additionalProperties: false },
);

/** POST /api/publish/<run_id>/promote */
export const PublishPromoteBody = T.Object({ target: T.Union([T.Literal('public'), T.Literal('unlisted')]) }, { additionalProperties: false });

/**
 * Options of every query schema: parameters it does not name pass (a cache-busting `?_=`, the
 * `token` of an event stream or link), where a body's unknown field is refused.
 */
const QUERY = { additionalProperties: true };

/** A node id as routes take it. */
const NodeId = T.String({ minLength: 1, maxLength: 512 });

/** ?path= of the file routes and the source viewer: a path inside the checkpoint. */
export const PathQuery = T.Object({ path: T.String() }, QUERY);
/** ?node_id= of the file tree: a node's work directory instead of the checkpoint. */
export const TreeQuery = T.Object({ node_id: T.Optional(T.String()) }, QUERY);

/** POST /api/checkpoint/file/save */
export const SaveFileBody = T.Object({
  path: T.String(),
  content: T.String(),
  // checked by decodeContent, whose message names the two choices (a union's validation message does not)
  encoding: T.Optional(T.String({ description: 'utf8 or base64' })),
  id: T.Optional(T.String({ description: 'the checkpoint; default the active one' })),
}, OPEN);
/** POST /api/checkpoint/file/delete */
export const DeleteFileBody = T.Object({ path: T.String(), id: T.Optional(T.String()) }, OPEN);
/** POST /api/checkpoint/compile: the paper's .tex (default: the checkpoint's paper) */
export const CompileBody = T.Object({ path: T.Optional(T.String()), id: T.Optional(T.String()) }, OPEN);

/** GET /api/checkpoint/<id>/summary */
export const SummaryQuery = T.Object(
  { nodes: T.Optional(T.String({ pattern: '^(0|1|true|false|outline)$', description: "include the nodes; 'outline': only their id, parent_id, status, label, name and metrics" })) },
  QUERY,
);
/** GET /api/checkpoint/<id>/memory */
export const MemoryQuery = T.Object({ node_id: T.Optional(NodeId) }, QUERY);
/** GET /api/checkpoint/<id>/memory_access */
export const MemoryAccessQuery = T.Object({ limit: T.Optional(T.String({ description: 'newest events kept, 1 to 100000 (default 1000)' })), node_id: T.Optional(NodeId) }, QUERY);
/** A checkpoint named in a request body: its id, or its path inside the checkpoints directory. */
export const CheckpointTarget = T.Object({ id: T.Optional(T.String({ minLength: 1, maxLength: 255 })), path: T.Optional(T.String({ minLength: 1, maxLength: 4096 })) }, OPEN);

/** POST /api/ear/clone-verify */
export const CloneVerifyBody = T.Object({ ref: T.String({ minLength: 1, maxLength: 4096 }), expect_sha256: T.Optional(T.String({ pattern: '^[0-9a-fA-F]{64}$' })) }, OPEN);

/** POST /api/confirmations/<id>: the answer to a held change */
export const ConfirmationBody = T.Object({ approve: T.Boolean() }, OPEN);

/** POST /api/fewshot/<rubric>/upload: svc's shape and the ARI web UI's (example_id, review_json, paper_txt, paper_pdf) */
export const FewshotUploadBody = T.Object({
  id: T.Optional(T.String()),
  name: T.Optional(T.String()),
  example_id: T.Optional(T.String()),
  // checked against the rubric by the domain function, which names the offending key
  review: T.Optional(T.Unknown()),
  review_json: T.Optional(T.Unknown()),
  text: T.Optional(T.String()),
  paper_txt: T.Optional(T.String()),
  pdf_base64: T.Optional(T.String()),
  paper_pdf: T.Optional(T.String()),
}, OPEN);
/** POST /api/fewshot/<rubric>/delete */
export const FewshotDeleteBody = T.Object({ example: T.String() }, OPEN);

/** GET /api/localllm-resources */
export const ModelQuery = T.Object({ model: T.Optional(T.String({ minLength: 1, maxLength: 200 })) }, QUERY);
const Turn = T.Object({ role: T.Union([T.Literal('user'), T.Literal('assistant')]), content: T.String({ maxLength: 100_000 }) });
/** POST /api/chat-goal */
export const ChatGoalBody = T.Object({ goal: T.Optional(T.String({ maxLength: 100_000 })), messages: T.Optional(T.Array(Turn)) }, OPEN);
/** POST /api/config/generate: the wizard's answers, checked by generateConfig */
export const GenerateConfigBody = T.Object({ answers: T.Unknown() }, OPEN);

/** GET /api/publish/<run_id>/preview */
export const PublishPreviewQuery = T.Object({ backend: T.Optional(T.String({ maxLength: 100 })), visibility: T.Optional(T.String({ maxLength: 100 })) }, QUERY);

/** GET /api/logs */
export const LogQuery = T.Object(
  {
    lines: T.Optional(T.String({ description: 'how many lines, 1 to 5000 (default 200)' })),
    since: T.Optional(T.String({ description: 'the `next` of a previous answer, `<log offset>:<cost offset>`' })),
    format: T.Optional(T.Literal('json')),
    stream: T.Optional(T.Union([T.Literal('1'), T.Literal('0'), T.Literal('true'), T.Literal('false')])),
  },
  QUERY,
);

/** POST /api/upload/delete */
export const UploadDeleteBody = T.Object({ name: T.String(), staging: T.Optional(T.String()), id: T.Optional(T.String()) }, OPEN);
/**
 * POST /api/upload: into the active checkpoint, or the checkpoint `id` names (a page showing one run
 * must not write into another that became active meanwhile); `staging` keeps the files for a run not
 * launched yet (core/checkpoint/upload-staging.ts)
 */
export const UploadQuery = T.Object({ staging: T.Optional(T.String()), id: T.Optional(T.String()) }, QUERY);

/** GET /api/experiment-detail: the experiment file of a checkpoint directory or Markdown file (`path`), a checkpoint (`id`), or the active one */
export const ExperimentQuery = T.Object({ id: T.Optional(T.String()), path: T.Optional(T.String()) }, QUERY);
/** POST /api/ssh/test */
export const SshTestBody = T.Object({ host: T.String(), port: T.Optional(T.Integer()), user: T.Optional(T.String()), key: T.Optional(T.String()) }, OPEN);

/** POST /api/workflow: the whole file as text, the document as keys, or the ARI web UI's {pipeline} */
export const WorkflowBody = T.Object({ yaml: T.Optional(T.String()), workflow: T.Optional(T.Record(T.String(), T.Unknown())), pipeline: T.Optional(T.Array(T.Unknown())) }, OPEN);
const EdgeKind = T.Union([T.Literal('depends_on'), T.Literal('loop_back_to')]);
/** POST /api/workflow/flow */
export const FlowBody = T.Object({
  nodes: T.Array(T.Object({ id: T.String(), enabled: T.Optional(T.Boolean()) })),
  edges: T.Array(T.Object({ from: T.String(), to: T.String(), kind: EdgeKind })),
}, OPEN);
/** POST /api/workflow/skills: svc's {name, enabled}, or the ARI web UI's {skills: [{name, phase}]} */
export const WorkflowSkillsBody = T.Object({
  name: T.Optional(T.String({ minLength: 1 })),
  enabled: T.Optional(T.Boolean()),
  skills: T.Optional(T.Array(T.Object({ name: T.String({ minLength: 1 }), phase: T.Union([Phase, T.Array(Phase)]) }))),
}, OPEN);
/** POST /api/workflow/disabled-tools: one skill's list {skill, tools}, or the whole list as the ARI web UI sends it {disabled_tools} */
export const DisabledToolsBody = T.Object({ skill: T.Optional(T.String({ minLength: 1 })), tools: T.Optional(T.Array(T.String())), disabled_tools: T.Optional(T.Array(T.String())) }, OPEN);
