# What an interactive zsh offers on Tab after `notula` and the words given (the last one is the word being
# completed, "" for a new one), with the completion file $1 first on fpath: one candidate a line.
# The shell runs in a pseudo-terminal (zsh/zpty), as a user's does: completion runs only in its line editor.
# compsys is the real one; compadd, which every completion function ends in, is wrapped to also note the
# candidates it keeps after matching what is typed.
# Each step waits for the shell's word, never for a time: keys typed before the line editor reads them meet the
# terminal's own line editing (a busy machine's zsh took longer to get there, and a Ctrl-U that followed the
# line erased it), and the candidates are all noted only once the completion has returned.
zmodload zsh/zpty
local completion=$1; shift
local candidates=$(mktemp) setup=$(mktemp)
cat > $setup <<SETUP
PS1=''; RPS1=''; fpath=(${completion:h} \$fpath); autoload -U compinit; compinit -u -D
compadd() {
  if [[ \${@[1,(i)--]} == *-[OAD]* ]]; then builtin compadd "\$@"; return; fi
  local -a kept; builtin compadd -A kept "\$@"; print -rl -- \$kept >> $candidates; builtin compadd "\$@"
}
zle-line-init() { print -n -- '<'editing'>' }
complete-then-say-so() { zle expand-or-complete; print -n -- '<'completed'>' }
zle -N zle-line-init; zle -N complete-then-say-so; bindkey '^I' complete-then-say-so
SETUP
zpty -b shell zsh -f -i
zpty -w shell "source $setup"
# The quotes keep the echo of what is typed from matching: only the shell's output does.
zpty -r shell output '*<editing>*'
zpty -w -n shell "notula ${(j: :)@}"$'\t'
zpty -r shell output '*<completed>*'
zpty -d shell
sort -u $candidates
# Not in an EXIT trap: zpty's child is a fork of this shell, and would run it too.
rm -f $candidates $setup
