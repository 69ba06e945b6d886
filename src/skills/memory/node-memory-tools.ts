import { Type as T } from '@sinclair/typebox';
import { deleteEvent, writeEvent } from '../../memory/access-log.ts';
import { NODE_KINDS } from '../../memory/research/entries.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { AncestorIdsParam, accessLog, checkpointMemory, LimitParam, logRead, NodeIdParam } from './context.ts';
import { requireCurrentNode } from './current-node.ts';

export const addMemory = defineTool({
  name: 'add_memory',
  description:
    "Store a note in the memory of the current node, for its descendants to find. Only the node being run may write its own memory: node_id must equal the current node (copy-on-write). Returns {entry_id, node_id}.",
  params: toolParams({
    node_id: NodeIdParam,
    text: T.String({ minLength: 1, maxLength: 100_000, description: 'what to remember; it is what searches match' }),
    metadata: T.Record(T.String(), T.Unknown(), { default: {}, description: 'any JSON object kept with the note' }),
  }),
  async run(args, ctx) {
    requireCurrentNode(ctx, args.node_id);
    const entry = await checkpointMemory(ctx).addOne({ nodeId: args.node_id, kind: 'node_scope', text: args.text, metadata: args.metadata });
    accessLog(ctx)?.append([writeEvent(entry)]);
    return { entry_id: entry.entry_id, node_id: entry.node_id };
  },
});

export const searchMemory = defineTool({
  name: 'search_memory',
  description:
    "Search the memory of the given ancestor nodes, best match first. Only entries written by those nodes are returned, never siblings' or descendants'. Returns {results: [{entry_id, node_id, text, metadata, score}]}.",
  params: toolParams({ query: T.String({ description: 'words to look for' }), ancestor_ids: AncestorIdsParam, limit: LimitParam }),
  async run(args, ctx) {
    const found = await checkpointMemory(ctx).search(args.query, args.ancestor_ids, NODE_KINDS, args.limit);
    const results = found.map((e) => ({ entry_id: e.entry_id, node_id: e.node_id, text: e.text, metadata: e.metadata, score: e.score }));
    logRead(ctx, args.query, args.ancestor_ids, args.limit, results.map((r) => ({ src_node_id: r.node_id, entry_id: r.entry_id, score: r.score })));
    return { results };
  },
});

export const getNodeMemory = defineTool({
  name: 'get_node_memory',
  description: 'Every memory entry of one node, oldest first: notes and typed entries. Returns {node_id, entries: [{entry_id, node_id, kind, text, metadata, ts}]}.',
  params: toolParams({ node_id: NodeIdParam }),
  async run(args, ctx) {
    const entries = await checkpointMemory(ctx).list([args.node_id], NODE_KINDS);
    logRead(ctx, 'inherit:get_node_memory', [args.node_id], null, entries.map((e) => ({ src_node_id: e.node_id, entry_id: e.entry_id })));
    return { node_id: args.node_id, entries };
  },
});

export const clearNodeMemory = defineTool({
  name: 'clear_node_memory',
  description: "Delete every memory entry of the current node. Only the node being run may clear its own memory (copy-on-write). Returns {node_id, removed}.",
  params: toolParams({ node_id: NodeIdParam }),
  async run(args, ctx) {
    requireCurrentNode(ctx, args.node_id);
    const removed = await checkpointMemory(ctx).clear(args.node_id, NODE_KINDS);
    if (removed.length > 0) accessLog(ctx)?.append([deleteEvent({ node_id: args.node_id, entry_ids: removed })]);
    return { node_id: args.node_id, removed: removed.length };
  },
});
