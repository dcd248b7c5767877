# The walk over the words typed after the command: which subcommand they name, how many positional words
# it has so far, and what the word being completed needs. Prints one candidate per line (::files: file names).
__crater_complete() {
  [ -n "${ZSH_VERSION-}" ] && emulate -L sh
  local _cp='' _cn=0 _cskip='' _copt='' _cw _csub
  while [ $# -gt 1 ]; do
    _cw=$1
    shift
    if [ -n "$_cskip" ]; then
      [ "$_cw" = "=" ] || _cskip=''
      continue
    fi
    case $_cw in
      --|--*=*) ;;
      -*) if __crater_valued "$_cp" "$_cw"; then _cskip=1; _copt=$_cw; fi ;;
      *) _csub=$(__crater_sub "$_cp" "$_cw")
         if [ -n "$_csub" ]; then
           if [ -z "$_cp" ]; then _cp=$_csub; else _cp="$_cp $_csub"; fi
           _cn=0
         else
           _cn=$((_cn + 1))
         fi ;;
    esac
  done
  _cw=${1-}
  if [ -n "$_cskip" ]; then
    __crater_optvalues "$_cp" "$_copt"
    return 0
  fi
  case $_cw in
    --*=*) _copt=${_cw%%=*}
           __crater_optvalues "$_cp" "$_copt" | while IFS= read -r _csub; do
             [ "$_csub" = ::files ] || printf '%s=%s\n' "$_copt" "$_csub"
           done
           return 0 ;;
    -*) __crater_options "$_cp"; return 0 ;;
  esac
  __crater_subs "$_cp"
  __crater_pos "$_cp" "$_cn"
  return 0
}

# A command's options: its own, and those its parents pass down.
__crater_options() {
  local _cp=$1
  __crater_own "$_cp"
  __crater_inh "$_cp"
  while [ -n "$_cp" ]; do
    case $_cp in *' '*) _cp=${_cp% *} ;; *) _cp='' ;; esac
    __crater_inh "$_cp"
  done
}

# Names remembered by the last list (crater job list, template list, account list). A file older than ten
# minutes (or none) is refreshed in the background by `crater __names KIND`; this completion answers from
# what is there now.
__crater_names() {
  local _cdir="${XDG_CACHE_HOME:-$HOME/.cache}/crater/names" _ccmd="${__crater_cmd:-crater}"
  case $_ccmd in '~/'*) _ccmd="$HOME/${_ccmd#??}" ;; esac
  if [ ! -f "$_cdir/$1" ] || [ -n "$(find "$_cdir/$1" -mmin +10 2>/dev/null)" ]; then
    mkdir -p "$_cdir" 2>/dev/null && touch "$_cdir/$1" 2>/dev/null
    ( "$_ccmd" __names "$1" </dev/null >/dev/null 2>&1 & )
  fi
  [ -f "$_cdir/$1" ] && cat "$_cdir/$1"
  return 0
}

# The contexts of the configuration file (its lines "- name: X").
__crater_contexts() {
  local _cf="${CRATER_CONFIG:-${XDG_CONFIG_HOME:-$HOME/.config}/crater/config.yaml}"
  [ -f "$_cf" ] && sed -n 's/^[[:space:]]*- name:[[:space:]]*//p' "$_cf" | sed "s/^[\"']//; s/[\"']\$//"
  return 0
}
