# fish completion for crater, written by `crater completion fish`. Save it as
# ~/.config/fish/completions/crater.fish, or load it with
#   crater completion fish | source
# The decisions are made by a small POSIX shell script (run with sh); completing never starts Java.
set -g __crater_core @CORE@

function __crater_candidates
    set -l toks (commandline -opc)
    set -l cur (commandline -ct)
    for line in (env __crater_cmd=$toks[1] sh -c "$__crater_core"\n'__crater_complete "$@"' crater $toks[2..-1] $cur)
        if test "$line" = ::files
            __fish_complete_path $cur
        else if test -n "$line"
            echo $line
        end
    end
end

complete -c crater -f -a '(__crater_candidates)'
