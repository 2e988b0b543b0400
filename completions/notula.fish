# fish completion for notula: its commands and options (those of `notula --help`), the memos and
# the locales of the models, asked of notulad. Installed where fish looks for a package's:
# $(datadir)/fish/vendor_completions.d/notula.fish.

# Whether the words typed after `notula`, before the one completed, match the glob $argv[1].
function __notula_typed
    set -l typed (commandline -opc)[2..-1]
    string match -q -- $argv[1] "$typed"
end

# The locales of `notula models list` ("ko-KR installed"); those in the state $argv[1] when it is given.
function __notula_locales
    notula models list 2>/dev/null | while read -l tag state rest
        if test -z "$argv[1]"; or test "$state" = "$argv[1]"
            echo $tag
        end
    end
end

# The memos of `notula memos list --json`, newest first: id, a tab, title.
function __notula_memos
    notula memos list --json 2>/dev/null | string replace -rf '^ *"(id|title)" : "(.*)",?$' '$1 $2' | while read -l key value
        switch $key
            case id
                set -f id $value
            case title
                printf '%s\t%s\n' $id $value
        end
    end
end

complete -c notula -f
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a status -d 'print the state and the seconds recorded'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a toggle -d 'start, pause or resume'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a start -d 'start recording'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a pause -d 'pause the recording'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a resume -d 'resume the recording'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a send -d 'end the recording and turn it into a memo'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a discard -d 'throw the recording away'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a locale -d 'print or set the locale of transcription'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a models -d 'list, install, remove the speech models'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a memos -d 'list, search, show, play, export the memos'
complete -c notula -n '__notula_typed "" ; or __notula_typed help' -a help -d 'print the usage of a command'

complete -c notula -n '__notula_typed "status*"; and not __fish_seen_argument -l follow' -l follow -d 'print again at every change'
complete -c notula -n '__notula_typed "status*"; and not __fish_seen_argument -l json' -l json -d 'one JSON object a line'
complete -c notula -n '__notula_typed send' -l type -d 'type the text into the focused window'
complete -c notula -n '__notula_typed send' -l copy -d 'put the text on the clipboard'
complete -c notula -n '__notula_typed locale' -a '(__notula_locales)'

complete -c notula -n '__notula_typed models; or __notula_typed "help models"' -a list -d 'every supported locale and its state'
complete -c notula -n '__notula_typed models; or __notula_typed "help models"' -a install -d 'download and install a model'
complete -c notula -n '__notula_typed models; or __notula_typed "help models"' -a remove -d 'delete a model Notula installed'
complete -c notula -n '__notula_typed models; or __notula_typed "help models"' -a cancel -d 'stop the download in flight'
complete -c notula -n '__notula_typed "models install"' -a '(__notula_locales available)'
complete -c notula -n '__notula_typed "models remove"' -a '(__notula_locales installed)'

complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a list -d 'every memo, newest first'
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a search -d 'memos whose title or transcript match'
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a show -d "a memo's details and transcript"
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a play -d "play a memo's audio"
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a export -d 'write a transcript'
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a rename -d 'give a memo a title'
complete -c notula -n '__notula_typed memos; or __notula_typed "help memos"' -a delete -d 'delete a memo and its audio'
complete -c notula -n '__notula_typed "memos list"; or __notula_typed "memos search ?*"' -l json -d 'one JSON array'
complete -c notula -n '__notula_typed "memos show"; or __notula_typed "memos play"; or __notula_typed "memos export"; or __notula_typed "memos rename"; or __notula_typed "memos delete"' -a '(__notula_memos)'
complete -c notula -n '__notula_typed "memos export ?*"; and not __notula_typed "memos export * --format*"' -l format -d 'txt, srt, vtt or json'
complete -c notula -n '__notula_typed "memos export * --format"' -a 'txt srt vtt json'
complete -c notula -n '__notula_typed "memos export * --format ?*"; and not __notula_typed "* -o*"' -s o -d 'write to a file'
complete -c notula -n '__notula_typed "memos export * -o"' -F
