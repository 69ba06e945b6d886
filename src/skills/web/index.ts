import type { SkillDef } from '../../mcp/tool.ts';
import { collectReferencesTool } from './collect-references.ts';
import { fetchUrlTool } from './fetch-url.ts';
import { searchArxivTool, searchPapersTool, searchScholarTool } from './literature.ts';
import { setRetrievalBackendTool } from './retrieval.ts';
import { listUploadedFilesTool, readUploadedFileTool } from './uploads.ts';
import { webSearchTool } from './web-search.ts';

const webSkill: SkillDef = {
  name: 'web-skill',
  description: "Search the web and the scholarly literature, read web pages and the run's uploaded files, and collect the related work of a paper (related_refs.json and refs.bib).",
  phases: ['paper', 'reproduce'],
  env: [
    'SVC_RETRIEVAL_BACKEND',
    'SVC_SCHOLAR_A_URL',
    'SVC_SCHOLAR_A_API_KEY',
    'SVC_SCHOLAR_B_URL',
    'SVC_RETRIEVAL_TIMEOUT_S',
    'BRAVE_API_KEY',
    'SVC_WEB_SEARCH_URL',
    'SVC_WEB_ALLOW_PRIVATE',
    'SVC_WEB_ALLOW_HOSTS',
    'SVC_MODEL_PAPER',
    'SVC_CHECKPOINT_DIR',
  ],
  usesModel: true,
  tools: [webSearchTool, fetchUrlTool, searchArxivTool, searchScholarTool, searchPapersTool, setRetrievalBackendTool, collectReferencesTool, listUploadedFilesTool, readUploadedFileTool],
};

export default webSkill;
