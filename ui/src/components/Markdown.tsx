import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';
import './markdown.css';

/**
 * Markdown written by a model or a researcher, as HTML. Sanitised: a report or a goal may carry
 * raw HTML, and the page holds the dashboard token.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true })), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
