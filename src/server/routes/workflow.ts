import { Elysia } from 'elysia';
import { parse } from 'yaml';
import { mergedEnv } from '../../core/config/environment.ts';
import { editCheckpointWorkflow, saveCheckpointWorkflow, workflowTextOf, workflowView } from '../../core/config/workflow-edit.ts';
import { applyFlow, replacePipeline, workflowFlow } from '../../core/config/workflow-flow.ts';
import { replaceDisabledTools, setDisabledTools, setSkillEnabled, setSkillPhases } from '../../core/config/workflow-skills.ts';
import { BUNDLED_WORKFLOW_TEXT, bundledWorkflow } from '../../core/config/workflow.ts';
import { InputError } from '../../core/errors.ts';
import type { ServerContext } from '../context.ts';
import { routingChanges } from '../routing-guard.ts';
import { DisabledToolsBody, FlowBody, WorkflowBody, WorkflowSkillsBody } from '../../schema/dashboard-api.ts';

/**
 * The workflow definition: the active checkpoint's copy (else the bundled default) is shown, and
 * every change is written to that checkpoint's copy only, after the same checks a run makes.
 */
export const workflowRoutes = (ctx: ServerContext) => {
  const view = () => {
    const cfg = ctx.config();
    return workflowView(cfg.workflow, mergedEnv(cfg.env, cfg.dotenv));
  };
  return new Elysia({ name: 'workflow' })
    .get('/api/workflow', view)
    .get('/api/workflow/default', () => ({ workflow: bundledWorkflow(), yaml: BUNDLED_WORKFLOW_TEXT }))
    .get('/api/workflow/flow', () => workflowFlow(ctx.config().workflow.workflow))
    .post(
      '/api/workflow',
      ({ body, request }) => {
        if (body.pipeline !== undefined && body.yaml === undefined && body.workflow === undefined) {
          const stages = body.pipeline;
          // a stage may carry its own inputs, an API base among them
          if (ctx.routing.isForeign(request)) ctx.routing.check(request, routingChanges({ pipeline: stages }, { pipeline: (currentWorkflow(ctx) as { pipeline?: unknown } | null)?.pipeline }), body);
          editCheckpointWorkflow(ctx.requireActive(), ctx.env, (doc) => replacePipeline(doc, stages));
        } else {
          const text = workflowTextOf(body);
          if (ctx.routing.isForeign(request)) ctx.routing.check(request, routingChanges(parseYamlOrNull(text), currentWorkflow(ctx)), body);
          // does not read the current copy, so a broken one can be replaced
          saveCheckpointWorkflow(ctx.requireActive(), text, ctx.env);
        }
        ctx.invalidate();
        return view();
      },
      { body: WorkflowBody },
    )
    .post(
      '/api/workflow/flow',
      ({ body }) => {
        editCheckpointWorkflow(ctx.requireActive(), ctx.env, (doc, wf) => applyFlow(doc, wf, body));
        ctx.invalidate();
        return workflowFlow(ctx.config().workflow.workflow);
      },
      {
        body: FlowBody,
      },
    )
    .post(
      '/api/workflow/skills',
      ({ body }) => {
        const { skills, name, enabled } = body;
        if (skills === undefined && (name === undefined || enabled === undefined)) throw new InputError('send {name, enabled} or {skills: [{name, phase}]}');
        editCheckpointWorkflow(ctx.requireActive(), ctx.env, (doc, wf) => (skills !== undefined ? setSkillPhases(doc, wf, skills) : setSkillEnabled(doc, wf, name as string, enabled as boolean)));
        ctx.invalidate();
        return view();
      },
      // svc's {name, enabled}, or the ARI web UI's {skills: [{name, phase}]}
      {
        body: WorkflowSkillsBody,
      },
    )
    .post(
      '/api/workflow/disabled-tools',
      ({ body }) => {
        const { disabled_tools: all, skill, tools } = body;
        if (all === undefined && (skill === undefined || tools === undefined)) throw new InputError('send {skill, tools} or {disabled_tools: [...]}');
        editCheckpointWorkflow(ctx.requireActive(), ctx.env, (doc, wf) => (all !== undefined ? replaceDisabledTools(doc, wf, all) : setDisabledTools(doc, wf, skill as string, tools as string[])));
        ctx.invalidate();
        return view();
      },
      // one skill's list {skill, tools}, or the whole list as the ARI web UI sends it {disabled_tools}
      { body: DisabledToolsBody },
    );
};

function parseYamlOrNull(text: string): unknown {
  try {
    return parse(text);
  } catch {
    // the save reports what is wrong with it
    return null;
  }
}

/** The workflow in force, or nothing when the copy is broken (every routing key is then a change). */
function currentWorkflow(ctx: ServerContext): unknown {
  try {
    return ctx.config().workflow.workflow;
  } catch {
    return null;
  }
}
