// An external skill for pipeline tests, as a user would add one: an executable MCP stdio server.
// draw_figures returns its arguments (so a test sees every template variable rendered);
// review_figures returns the next score of LOOP_SCORES (comma-separated, the last one repeats),
// counted in LOOP_STATE, with issues and suggestions; decline writes its `file` argument and declines
// with its `reason` ({skipped: true, reason}). Every call is logged to LOOP_CALLS.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const open = { type: 'object', additionalProperties: true };
const server = new Server({ name: 'loop-skill', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'draw_figures', description: 'echo the arguments', inputSchema: open },
    { name: 'review_figures', description: 'score the figures', inputSchema: open },
    { name: 'decline', description: 'write a record and decline', inputSchema: open },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (req) => {
  if (process.env.LOOP_CALLS) appendFileSync(process.env.LOOP_CALLS, `${JSON.stringify({ tool: req.params.name, args: req.params.arguments })}\n`);
  const args = req.params.arguments ?? {};
  if (req.params.name === 'decline' && typeof args.file === 'string') writeFileSync(args.file, JSON.stringify({ declined: args.reason }));
  const text = JSON.stringify(req.params.name === 'review_figures' ? review() : req.params.name === 'decline' ? { skipped: true, reason: args.reason } : { drawn: true, args });
  return { content: [{ type: 'text', text }] };
});

function review(): Record<string, unknown> {
  const state = process.env.LOOP_STATE ?? '';
  const n = state && existsSync(state) ? Number(readFileSync(state, 'utf8')) : 0;
  if (state) writeFileSync(state, String(n + 1));
  const scores = (process.env.LOOP_SCORES ?? '0.9').split(',').map(Number);
  const score = scores[Math.min(n, scores.length - 1)] ?? 0.9;
  return { score, issues: [`figure ${n + 1} has no axis labels`], suggestions: ['label both axes'], review_text: `review ${n + 1}` };
}

await server.connect(new StdioServerTransport());
