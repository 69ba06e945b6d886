import { Elysia, t } from 'elysia';
import { deleteExample, listExamples } from '../../paper/fewshot.ts';
import { syncCorpus } from '../../paper/fewshot-sync.ts';
import { exampleUploadOf, uploadExample } from '../../paper/fewshot-upload.ts';
import { defaultRubric, knownRubricId, loadRubricCatalog, rubricSummary, usableRubric } from '../../paper/rubrics.ts';
import type { ServerContext } from '../context.ts';

/** svc's shape and the ARI web UI's (example_id, review_json, paper_txt, paper_pdf) */
const UploadBody = t.Object({
  id: t.Optional(t.String()),
  name: t.Optional(t.String()),
  example_id: t.Optional(t.String()),
  // checked against the rubric by the domain function, which names the offending key
  review: t.Optional(t.Unknown()),
  review_json: t.Optional(t.Unknown()),
  text: t.Optional(t.String()),
  paper_txt: t.Optional(t.String()),
  pdf_base64: t.Optional(t.String()),
  paper_pdf: t.Optional(t.String()),
});

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
      { body: UploadBody },
    )
    .post('/api/fewshot/:rubric/delete', ({ params, body }) => remove(params.rubric, body.example), { body: t.Object({ example: t.String() }) })
    .post('/api/fewshot/:rubric/:example/delete', ({ params }) => remove(params.rubric, params.example));
};
