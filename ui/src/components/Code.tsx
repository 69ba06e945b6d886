import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { defaultHighlightStyle, type LanguageSupport, StreamLanguage, type StreamParser, syntaxHighlighting } from '@codemirror/language';
import { python } from '@codemirror/legacy-modes/mode/python';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { stex } from '@codemirror/legacy-modes/mode/stex';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { yaml } from '@codemirror/legacy-modes/mode/yaml';
import { MergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import './code.css';

// stream modes: a few KB each, where the full grammars would add a hundred KB to the page
const STREAM: Record<string, StreamParser<unknown>> = {
  py: python as StreamParser<unknown>,
  sh: shell as StreamParser<unknown>,
  bash: shell as StreamParser<unknown>,
  yaml: yaml as StreamParser<unknown>,
  yml: yaml as StreamParser<unknown>,
  toml: toml as StreamParser<unknown>,
  tex: stex as StreamParser<unknown>,
  bib: stex as StreamParser<unknown>,
};

/** The highlighting of a file, chosen by its name's extension (none when unknown). */
function languageOf(fileName: string): Extension {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'json' || ext === 'jsonl') return json() as LanguageSupport;
  const parser = STREAM[ext];
  return parser ? StreamLanguage.define(parser) : [];
}

function extensions(fileName: string, editable: boolean, label: string, onChange?: (text: string) => void): Extension[] {
  return [
    lineNumbers(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    languageOf(fileName),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': label }),
    EditorState.readOnly.of(!editable),
    EditorView.editable.of(editable),
    ...(editable ? [history(), keymap.of([...defaultKeymap, ...historyKeymap])] : []),
    ...(onChange ? [EditorView.updateListener.of((u) => u.docChanged && onChange(u.state.doc.toString()))] : []),
  ];
}

type CodeProps = {
  /** The file's name: chooses the highlighting. */
  fileName: string;
  text: string;
  /** What a screen reader announces for the text area. */
  label: string;
  /** Given: the text can be edited and each change is reported. */
  onChange?: (text: string) => void;
};

/**
 * A file's text with line numbers and highlighting; editable when `onChange` is given. A new
 * `text` replaces the document (a file opened or reloaded); edits are reported, not echoed back.
 */
export function Code({ fileName, text, label, onChange }: CodeProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const report = useRef(onChange);
  report.current = onChange;
  const editable = onChange !== undefined;
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({ doc: text, extensions: extensions(fileName, editable, label, (t) => report.current?.(t)) }),
    });
    view.current = v;
    return () => v.destroy();
    // the document is replaced below; a new editor only for another kind of file
  }, [fileName, editable, label]);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== text) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  }, [text]);
  return <div className="code" ref={host} />;
}

type DiffProps = { fileName: string; before: string; after: string; beforeLabel: string; afterLabel: string };

/** Two versions of a file side by side, the changed lines marked; read only. */
export function Diff({ fileName, before, after, beforeLabel, afterLabel }: DiffProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const merge = new MergeView({
      parent: host.current!,
      a: { doc: before, extensions: extensions(fileName, false, beforeLabel) },
      b: { doc: after, extensions: extensions(fileName, false, afterLabel) },
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => merge.destroy();
  }, [fileName, before, after, beforeLabel, afterLabel]);
  return <div className="code diff" ref={host} />;
}
