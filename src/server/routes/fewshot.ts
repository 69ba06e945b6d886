import { Elysia } from 'elysia';
import { deleteExample, listExamples } from '../../paper/fewshot.ts';
import { syncCorpus } from '../../paper/fewshot-sync.ts';
import { exampleUploadOf, uploadExample } from '../../paper/fewshot-upload.ts';
import { defaultRubric, knownRubricId, loadRubricCatalog, rubricSummary, usableRubric } from '../../paper/rubrics.ts';
import type { ServerContext } from '../context.ts';
import { FewshotDeleteBody, FewshotUploadBody } from '../../schema/dashboard-api.ts';

/** Reviewer rubrics and the few-shot corpus of each (uploads and few-shot corpus section). */
export const fewshotRoutes = (ctx: ServerContext) => {
  const root = () => ctx.config().projectRoot;
  const catalog = () => loadRubricCatalog(root());
  const remove = (rubric: string, example: string) => {
    const id = knownRubricId(catalog(), rubric);
    return { ok: true, rubric: id, ...deleteExample(root(), id, example) };
  };

  return new Elysia({ name: 'fewshot' })
    .get('/api/rubrics', () => {
      const c = catalog();
      const chosen = defaultRubric(c, ctx.env.SVC_RUBRIC);
      return {
        rubrics: c.rubrics.map(rubricSummary),
        default: chosen.id,
        ...(chosen.warning ? { warning: chosen.warning } : {}),
        problems: c.problems,
      };
    })
    .get('/api/fewshot/:rubric', ({ params }) => {
      const id = knownRubricId(catalog(), params.rubric);
      return { rubric: id, ...listExamples(root(), id) };
    })
    .post('/api/fewshot/:rubric/sync', ({ params }) => {
      const id = knownRubricId(catalog(), params.rubric);
      return { rubric: id, ...syncCorpus(root(), id) };
    })
    .post(
      '/api/fewshot/:rubric/upload',
      ({ params, body }) => {
        const rubric = usableRubric(catalog(), params.rubric);
        return { ok: true, rubric: rubric.id, ...uploadExample(root(), rubric, exampleUploadOf(body)) };
      },
      { body: FewshotUploadBody },
    )
    .post('/api/fewshot/:rubric/delete', ({ params, body }) => remove(params.rubric, body.example), { body: FewshotDeleteBody })
    .post('/api/fewshot/:rubric/:example/delete', ({ params }) => remove(params.rubric, params.example));
};
