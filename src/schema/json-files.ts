import { Publish } from './publish.ts';
import { Rubric } from './rubric.ts';
import { ScienceData } from './science-data.ts';
import { Workflow } from './workflow.ts';

/** The JSON Schema files published under schemas/, generated from the TypeBox definitions. */
export function schemaFiles(): { path: string; text: string }[] {
  return [
    { path: 'schemas/workflow.schema.json', text: `${JSON.stringify(Workflow, null, 2)}\n` },
    { path: 'schemas/rubric.schema.json', text: `${JSON.stringify(Rubric, null, 2)}\n` },
    { path: 'schemas/publish.schema.json', text: `${JSON.stringify(Publish, null, 2)}\n` },
    { path: 'schemas/science-data.schema.json', text: `${JSON.stringify(ScienceData, null, 2)}\n` },
  ];
}
