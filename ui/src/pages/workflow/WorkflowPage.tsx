import { notBuilt } from '../not-built.tsx';

export const WorkflowPage = notBuilt('Workflow', 'The workflow is workflow.yaml in the project; svc skills-list shows its skills.');
