// a stylesheet imported by a component is bundled into the page's one stylesheet
declare module '*.css';
