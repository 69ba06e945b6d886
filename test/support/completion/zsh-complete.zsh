# What an interactive zsh offers on TAB after a typed line, one match a line.
#   zsh -f zsh-complete.zsh <directory holding _svc> <typed line>
# A zsh on a pseudo-terminal (zpty) loads the script through compinit, as a user's shell would; its
# compadd is wrapped to print each match it adds, and TAB runs completion then prints an end mark.
zmodload zsh/zpty
zpty shell 'zsh -f -i 2>&1'
zpty -w shell "PROMPT=''; fpath=(${(q)1} \$fpath); autoload -U compinit && compinit -u -D"
zpty -w shell 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  local -a hits; builtin compadd -A hits "$@"; (( $#hits )) || return 1
  builtin compadd "$@"; local m; for m in $hits; do print -r -- "<M>$m"; done >&2
}'
zpty -w shell 'zle -C svc-complete complete-word _main_complete; tab() { zle svc-complete; print -r -- "<END>" >&2 }; zle -N tab; bindkey "^I" tab; print SETUP''-DONE'
zpty -r shell line '*SETUP-DONE*'
zpty -w -n shell "$2"$'\t'
out=''
while zpty -r shell line; do out+=$line; [[ $out == *'<END>'* ]] && break; done
zpty -d shell
print -r -- ${out%%<END>*} | tr -d '\r' | grep -o '<M>[^<]*' | sed 's/^<M>//'
