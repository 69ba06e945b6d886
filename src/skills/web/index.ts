import type { SkillDef } from '../../mcp/tool.ts';
import { collectReferencesTool } from './collect-references.ts';
import { fetchUrlTool } from './fetch-url.ts';
import { searchArxivTool, searchPapersTool, searchScholarTool } from './literature.ts';
import { setRetrievalBackendTool } from './retrieval.ts';
import { listUploadedFilesTool, readUploadedFileTool } from './uploads.ts';
import { webSearchTool } from './web-search.ts';
import { RETRIEVAL_ENV } from '../../ideas/retrieval-settings.ts';

const webSkill: SkillDef = {
  name: 'web-skill',
  description: "Search the web and the scholarly literature, read web pages and the run's uploaded files, and collect the related work of a paper (related_refs.json and refs.bib).",
  phases: ['paper', 'reproduce'],
  env: [
    ...RETRIEVAL_ENV,
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
