import type { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';
import { benchPaperRoutes } from './bench-papers.ts';
import { benchRunRoutes } from './bench-runs.ts';
import { checkpointFileRoutes } from './checkpoint-files.ts';
import { checkpointRoutes } from './checkpoints.ts';
import { cloneRoutes } from './clone.ts';
import { confirmationRoutes } from './confirmations.ts';
import { doctorRoutes } from './doctor.ts';
import { earRoutes } from './ear.ts';
import { fewshotRoutes } from './fewshot.ts';
import { memoryRoutes } from './memory.ts';
import { modelRoutes } from './models.ts';
import { nodeRoutes } from './nodes.ts';
import { publishRoutes } from './publish.ts';
import { runRoutes } from './runs.ts';
import { sandboxRoutes } from './sandbox.ts';
import { settingsRoutes } from './settings.ts';
import { skillRoutes } from './skills.ts';
import { stateRoutes } from './state.ts';
import { staticRoutes } from './static.ts';
import { subExperimentRoutes } from './sub-experiments.ts';
import { uploadRoutes } from './uploads.ts';
import { wizardRoutes } from './wizard.ts';
import { workflowRoutes } from './workflow.ts';

/** One plugin per section of the dashboard API spec. */
export const ROUTES: ((ctx: ServerContext) => Elysia<any, any, any, any, any, any, any>)[] = [
  stateRoutes,
  runRoutes,
  subExperimentRoutes,
  checkpointRoutes,
  checkpointFileRoutes,
  memoryRoutes,
  settingsRoutes,
  confirmationRoutes,
  workflowRoutes,
  wizardRoutes,
  modelRoutes,
  uploadRoutes,
  fewshotRoutes,
  skillRoutes,
  nodeRoutes,
  earRoutes,
  publishRoutes,
  sandboxRoutes,
  doctorRoutes,
  cloneRoutes,
  benchPaperRoutes,
  benchRunRoutes,
  staticRoutes,
];
