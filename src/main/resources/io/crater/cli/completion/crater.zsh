#compdef crater
# zsh completion for crater, written by `crater completion zsh`. Save it as _crater in a directory of
# $fpath (before compinit), or load it after compinit with
#   source <(crater completion zsh)
# Completing never starts Java.
@CORE@
_crater() {
  local line
  local -a cands
  __crater_cmd=${words[1]}
  for line in "${(@f)$(__crater_complete "${(@)words[2,CURRENT]}")}"; do
    case $line in
      '') ;;
      ::files) _files ;;
      *=) compadd -S '' -- "$line" ;;
      *) cands+=("$line") ;;
    esac
  done
  (( ${#cands} )) && compadd -- "${cands[@]}"
  return 0
}
if [ "$funcstack[1]" = "_crater" ]; then
  _crater "$@"
else
  compdef _crater crater
fi
