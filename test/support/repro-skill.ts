// An external skill for tests, as a user would add one: an executable MCP stdio server offering
// grade_with_judge. Its grade comes from REPRO_GRADE (JSON); the call is logged to REPRO_CALLS.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'repro-skill', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'grade_with_judge', description: 'grade a reproduction', inputSchema: { type: 'object', properties: { rubric_path: { type: 'string' }, n_runs: { type: 'number' } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, (req) => {
  if (process.env.REPRO_CALLS) appendFileSync(process.env.REPRO_CALLS, `${JSON.stringify({ tool: req.params.name, args: req.params.arguments })}\n`);
  return { content: [{ type: 'text', text: process.env.REPRO_GRADE ?? '{"error":"REPRO_GRADE is not set"}' }] };
});
await server.connect(new StdioServerTransport());

