# bash completion for crater, written by `crater completion bash`. Load it in ~/.bashrc with
#   source <(crater completion bash)
# or save it as ~/.local/share/bash-completion/completions/crater. Completing never starts Java.
@CORE@
_crater() {
  local cur=${COMP_WORDS[COMP_CWORD]} line file
  [ "$cur" = "=" ] && cur=''
  COMPREPLY=()
  __crater_cmd=${COMP_WORDS[0]}
  while IFS= read -r line; do
    case $line in
      '') ;;
      ::files)
        compopt -o filenames 2>/dev/null
        while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$cur") ;;
      *) [[ $line == "$cur"* ]] && COMPREPLY+=("$line") ;;
    esac
  done < <(__crater_complete "${COMP_WORDS[@]:1:COMP_CWORD}")
  if [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}
complete -F _crater crater
