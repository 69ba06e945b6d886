import { pathKey, shQuote } from './shell-quote.ts';
import { allNodes, type CompletionNode } from './tree.ts';

/**
 * The bash completion script: the command path is found by walking the words typed so far
 * (skipping each option's value); then the path's options after a `-`, else its subcommands.
 * An option's value, an argument, and a command without subcommands complete file names (`-o default`).
 * Plain bash 3.2 (macOS's): no associative arrays, no compopt.
 */
export function bashScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lookup = (fn: string, words: (n: CompletionNode) => string[]) =>
    [
      `${fn}() {`,
      '  case "$1" in',
      ...nodes.filter((n) => words(n).length > 0).map((n) => `    ${shQuote(pathKey(n.path))}) REPLY=${shQuote(words(n).join(' '))} ;;`),
      "    *) REPLY='' ;;",
      '  esac',
      '}',
    ].join('\n');
  return `# bash completion for svc: source <(svc completion bash)
${lookup('_svc_subcommands', (n) => n.subcommands.map((s) => s.path.at(-1) ?? ''))}
${lookup('_svc_options', (n) => n.options.flatMap((o) => o.names))}
${lookup('_svc_value_options', (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.names))}
_svc() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath='' word i REPLY args=0
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word=\${COMP_WORDS[i]}
    _svc_value_options "$cmdpath"
    if [[ " $REPLY " == *" $word "* ]]; then
      (( i++ ))
      continue
    fi
    [[ $word == -* ]] && continue
    _svc_subcommands "$cmdpath"
    # as dispatch does: a subcommand only before any argument
    if (( !args )) && [[ " $REPLY " == *" $word "* ]]; then cmdpath=\${cmdpath:+$cmdpath }$word; else args=1; fi
  done
  COMPREPLY=()
  _svc_value_options "$cmdpath"
  # the value of an option: file names
  (( COMP_CWORD > 1 )) && [[ " $REPLY " == *" \${COMP_WORDS[COMP_CWORD-1]} "* ]] && return 0
  if [[ $cur == -* ]]; then _svc_options "$cmdpath"; elif (( args )); then return 0; else _svc_subcommands "$cmdpath"; fi
  COMPREPLY=( $(compgen -W "$REPLY" -- "$cur") )
}
complete -o default -F _svc svc
`;
}
