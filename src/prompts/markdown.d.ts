// Prompt templates are Markdown files embedded in the binary as text.
declare module '*.md' {
  const text: string;
  export default text;
}
