# What an interactive zsh offers on Tab after `notula` and the words given (the last one is the word being
# completed, "" for a new one), with the completion file $1 first on fpath: one candidate a line.
# The shell runs in a pseudo-terminal (zsh/zpty), as a user's does: completion runs only in its line editor.
# compsys is the real one; compadd, which every completion function ends in, is wrapped to also note the
# candidates it keeps after matching what is typed.
zmodload zsh/zpty
local completion=$1; shift
local candidates=$(mktemp) setup=$(mktemp)
cat > $setup <<SETUP
PS1=''; RPS1=''; fpath=(${completion:h} \$fpath); autoload -U compinit; compinit -u -D
compadd() {
  if [[ \${@[1,(i)--]} == *-[OAD]* ]]; then builtin compadd "\$@"; return; fi
  local -a kept; builtin compadd -A kept "\$@"; print -rl -- \$kept >> $candidates; builtin compadd "\$@"
}
print -- '<'ready'>'
SETUP
zpty -b shell zsh -f -i
zpty -w shell "source $setup"
# The quotes keep the echo of the command typed from matching: only its output does.
zpty -r shell output '*<ready>*'
zpty -w -n shell "notula ${(j: :)@}"$'\t'
zpty -w shell $'\C-u'"print -- '<'done'>'"
zpty -r shell output '*<done>*'
zpty -d shell
sort -u $candidates
# Not in an EXIT trap: zpty's child is a fork of this shell, and would run it too.
rm -f $candidates $setup
