import { pathKey, shQuote } from './shell-quote.ts';
import { allNodes, type CompletionNode } from './tree.ts';

/**
 * The zsh completion script, walking the typed words as the bash one does, with each
 * subcommand and option described. Works from $fpath (as _svc) and when sourced.
 */
export function zshScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lookup = (fn: string, words: (n: CompletionNode) => string[]) =>
    [
      `${fn}() {`,
      '  case "$1" in',
      ...nodes.filter((n) => words(n).length > 0).map((n) => `    ${shQuote(pathKey(n.path))}) reply=(${words(n).map(shQuote).join(' ')}) ;;`),
      '    *) reply=() ;;',
      '  esac',
      '}',
    ].join('\n');
  // _describe's entries: name:description
  const described = (name: string, description: string) => (description ? `${name}:${description}` : name);
  return `#compdef svc
# zsh completion for svc: svc completion zsh > "\${fpath[1]}/_svc"
${lookup('_svc_subcommands', (n) => n.subcommands.map((s) => described(s.path.at(-1) ?? '', s.description)))}
${lookup('_svc_options', (n) => n.options.flatMap((o) => o.names.map((name) => described(name, o.description))))}
${lookup('_svc_value_options', (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.names))}
_svc() {
  local cmdpath='' word i args=0
  local -a reply names choices
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    _svc_value_options "$cmdpath"
    if (( \${reply[(Ie)$word]} )); then
      (( i++ ))
      continue
    fi
    [[ $word == -* ]] && continue
    _svc_subcommands "$cmdpath"
    names=(\${reply%%:*})
    # as dispatch does: a subcommand only before any argument
    if (( !args && \${names[(Ie)$word]} )); then cmdpath=\${cmdpath:+$cmdpath }$word; else args=1; fi
  done
  _svc_value_options "$cmdpath"
  # the value of an option: file names
  if (( CURRENT > 2 && \${reply[(Ie)\${words[CURRENT-1]}]} )); then
    _files
    return
  fi
  if [[ \${words[CURRENT]} == -* ]]; then
    _svc_options "$cmdpath"
    # _describe is given its own array: completion functions use reply themselves
    choices=("\${reply[@]}")
    _describe -t options option choices
    return
  fi
  (( args )) && reply=() || _svc_subcommands "$cmdpath"
  choices=("\${reply[@]}")
  if (( \${#choices} )); then _describe -t commands command choices; else _files; fi
}
compdef _svc svc
# loaded from $fpath: complete now; sourced: compdef above is enough
if [[ "\${funcstack[1]}" == _svc ]]; then _svc "$@"; fi
`;
}
