import { describe, expect, test } from 'bun:test';
import { bundledWorkflow } from '../../../../src/core/config/workflow.ts';
import { builtinSkill } from '../../../../src/schema/tool-manifest.ts';
import { BUILTIN_SKILLS, loadSkill } from '../../../../src/skills/catalog.ts';
import { listing } from '../../../../src/mcp/serve.ts';

const TOOLS = ['web_search', 'fetch_url', 'search_arxiv', 'search_scholar', 'search_papers', 'set_retrieval_backend', 'collect_references_iterative', 'list_uploaded_files', 'read_uploaded_file'];

describe('web-skill in the catalogue', () => {
  test('a built-in skill with the nine tools of the catalogue, phases paper and reproduce, using a model', async () => {
    expect(BUILTIN_SKILLS.has('web-skill')).toBe(true);
    const skill = await loadSkill('web-skill');
    expect(skill?.phases).toEqual(['paper', 'reproduce']);
    expect(skill?.usesModel).toBe(true);
    expect(skill?.tools.map((t) => t.name)).toEqual(TOOLS);
    // the manifest the run lists tools from, without loading skill code, says the same
    expect(builtinSkill('web-skill')?.tools.map((t) => t.name)).toEqual(TOOLS);
  });

  test('arguments and defaults as the catalogue gives them; only arguments without a default are required', async () => {
    const tools = new Map((await loadSkill('web-skill'))?.tools.map((t) => [t.name, listing(t).inputSchema as { properties: Record<string, { default?: unknown }>; required?: string[] }]));
    const shape = (name: string) => {
      const s = tools.get(name);
      return Object.fromEntries(Object.entries(s?.properties ?? {}).map(([k, v]) => [k, v.default ?? (s?.required?.includes(k) ? 'required' : 'optional')]));
    };
    expect(shape('web_search')).toEqual({ query: 'required', n: 5 });
    expect(shape('fetch_url')).toEqual({ url: 'required', max_chars: 8000 });
    expect(shape('search_arxiv')).toEqual({ query: 'required', max_results: 5 });
    expect(shape('search_scholar')).toEqual({ query: 'required', limit: 8, extra_queries: [] });
    expect(shape('search_papers')).toEqual({ query: 'required', max_results: 10 });
    expect(shape('set_retrieval_backend')).toEqual({ backend: 'required' });
    expect(shape('collect_references_iterative')).toEqual({ experiment_summary: 'required', keywords: 'required', max_rounds: 20, min_papers: 10 });
    expect(shape('list_uploaded_files')).toEqual({});
    expect(shape('read_uploaded_file')).toEqual({ filename: 'required', max_chars: 50000 });
  });

  test('the bundled workflow names it built-in, and its search_related_work stage calls collect_references_iterative', () => {
    const wf = bundledWorkflow();
    expect(wf.skills.find((s) => s.name === 'web-skill')).toMatchObject({ path: 'builtin', phase: ['paper', 'reproduce'] });
    expect(wf.pipeline.find((s) => s.stage === 'search_related_work')).toMatchObject({ skill: 'web-skill', tool: 'collect_references_iterative' });
    expect(wf.web).toEqual({ allow_private: false, allow_hosts: [] });
  });
});
