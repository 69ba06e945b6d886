import { Type as T } from '@sinclair/typebox';

// Letta's clients send more fields than svc reads (model, embedding, ...): they pass.
const LETTA = { additionalProperties: true };

/** The most passages one list, search or batch add of the memory server takes. */
export const MAX_PAGE = 10_000;

const Tags = T.Array(T.String(), { description: 'tags of the agent or passage' });
/** A passage's vector as backups carry it: the model's name and base64 of the little-endian Float32 values. */
export const PassageVector = T.Object({ model: T.String({ minLength: 1 }), data: T.String({ minLength: 1 }) });
const Passage = T.Object({ text: T.String(), tags: T.Optional(T.Union([Tags, T.Null()])), vector: T.Optional(PassageVector) }, LETTA);

/** POST /v1/agents: Letta's create-agent body, the fields svc uses. */
export const CreateAgentBody = T.Object({
  name: T.String({ pattern: '\\S', description: 'unique; not blank' }),
  tags: T.Optional(T.Union([Tags, T.Null()])),
  memory_blocks: T.Optional(T.Union([T.Array(T.Object({ label: T.String(), value: T.String() }, LETTA)), T.Null()])),
  embedding: T.Optional(T.Union([T.String({ description: 'embedding model handle, [backend/]model; default or none: the server\'s own' }), T.Null()])),
}, LETTA);

/** POST /v1/agents/:id/archival-memory: one passage (Letta's `{text, tags}`) or a batch `{passages}`. */
export const AddPassagesBody = T.Object({
  text: T.Optional(T.String()),
  tags: T.Optional(T.Union([Tags, T.Null()])),
  passages: T.Optional(T.Array(Passage, { maxItems: MAX_PAGE })),
}, LETTA);

/** PATCH /v1/agents/:id/core-memory/blocks/:label */
export const SetBlockBody = T.Object({ value: T.String() }, LETTA);
