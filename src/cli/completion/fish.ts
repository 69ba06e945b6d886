import { pathKey } from './shell-quote.ts';
import { allNodes, type CompletionNode } from './tree.ts';

/** `s` as one single-quoted word of fish (which escapes \ and ' inside quotes). */
const fishQuote = (s: string) => `'${s.replace(/[\\']/g, '\\$&')}'`;

/**
 * The fish completion script: __svc_path finds the command path of the typed words as the
 * bash script does; each subcommand and option is completed where the path is its command's.
 */
export function fishScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lookup = (fn: string, words: (n: CompletionNode) => string[]) =>
    [`function ${fn}`, '    switch $argv[1]', ...nodes.filter((n) => words(n).length > 0).flatMap((n) => [`        case ${fishQuote(pathKey(n.path))}`, `            printf '%s\\n' ${words(n).map(fishQuote).join(' ')}`]), '    end', 'end'].join('\n');
  const completions = nodes.flatMap((n) => {
    const at = `-n ${fishQuote(`__svc_at ${fishQuote(pathKey(n.path))}`)}`;
    const subAt = `-n ${fishQuote(`__svc_sub_at ${fishQuote(pathKey(n.path))}`)}`;
    const subs = n.subcommands.map((s) => `complete -c svc ${subAt} -f -a ${fishQuote(s.path.at(-1) ?? '')} -d ${fishQuote(s.description)}`);
    const options = n.options.map((o) => {
      const names = o.names.map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`)).join(' ');
      // an option's value: file names
      return `complete -c svc ${at} ${names} ${o.takesValue ? '-r -F' : '-f'} -d ${fishQuote(o.description)}`;
    });
    return [...subs, ...options];
  });
  return `# fish completion for svc: svc completion fish > ~/.config/fish/completions/svc.fish
${lookup('__svc_subcommands', (n) => n.subcommands.map((s) => s.path.at(-1) ?? ''))}
${lookup('__svc_value_options', (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.names))}
function __svc_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l cmdpath ''
    set -l skip 0
    set -l args 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if contains -- $word (__svc_value_options "$cmdpath")
            set skip 1
            continue
        end
        string match -q -- '-*' $word; and continue
        # as dispatch does: a subcommand only before any argument
        if test $args = 0; and contains -- $word (__svc_subcommands "$cmdpath")
            set cmdpath (string trim -- "$cmdpath $word")
        else
            set args 1
        end
    end
    echo "path:$cmdpath"
    test $args = 1; and echo args
end
# the typed words are at this command's options
function __svc_at
    set -l found (__svc_path)
    test "$found[1]" = "path:$argv[1]"
end
# the typed words are where this command's subcommand goes
function __svc_sub_at
    set -l found (__svc_path)
    test "$found[1]" = "path:$argv[1]"; and test (count $found) = 1
end
${completions.join('\n')}
`;
}
