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

# The names of `notula models list --all` ("ko-KR vosk-model-small-ko-0.22 small …"); those of the locale $argv[1] when given.
function __notula_models
    notula models list --all 2>/dev/null | while read -l tag name rest
        if test -z "$argv[1]"; or test "$tag" = "$argv[1]"
            echo $name
        end
    end
end

# The locale typed after `notula models SUBCOMMAND`.
function __notula_typed_locale
    echo (commandline -opc)[4]
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

# The app ids `notula permissions` lists ("org.example.App  allowed"): id, a tab, decision.
function __notula_apps
    notula permissions 2>/dev/null | while read -l app decision rest
        test -n "$decision"; and test -z "$rest"; and printf '%s\t%s\n' $app $decision
    end
end

# Offers each "word<tab>what it does" of $argv[2..] while the condition $argv[1] holds.
function __notula_offer
    for entry in $argv[2..-1]
        set -l parts (string split -m1 \t -- $entry)
        complete -c notula -n $argv[1] -a $parts[1] -d $parts[2]
    end
end

complete -c notula -f
__notula_offer '__notula_typed ""; or __notula_typed help' \
    status\t'print the state and the seconds recorded' toggle\t'start, pause or resume' start\t'start recording' \
    pause\t'pause the recording' resume\t'resume the recording' send\t'end the recording and turn it into a memo' \
    discard\t'throw the recording away' \
    dictate\t'a recording typed where you write, sent after a pause' watch\t'the words while they are spoken' \
    listen\t'the audio while it is recorded, on standard output' locale\t'print or set the locale of transcription' \
    models\t'list, install, remove the speech models' memos\t'list, search, show, play, export the memos' \
    permissions\t'the sandboxed apps allowed or denied to hear your recordings' \
    vocabulary\t'your own words and phrases, spelled as you spell them' help\t'print the usage of a command'

__notula_offer '__notula_typed permissions; or __notula_typed "help permissions"' \
    allow\t'let a sandboxed app hear your recordings' deny\t'refuse an app without asking again' \
    revoke\t'forget the decision: the app is asked again'
complete -c notula -n '__notula_typed "permissions allow"; or __notula_typed "permissions deny"; or __notula_typed "permissions revoke"' \
    -a '(__notula_apps)'
__notula_offer '__notula_typed vocabulary; or __notula_typed "help vocabulary"' \
    add\t'add words or phrases' remove\t'remove words or phrases'

complete -c notula -n '__notula_typed "status*"; and not __fish_seen_argument -l follow' -l follow -d 'print again at every change'
complete -c notula -n '__notula_typed "status*"; and not __fish_seen_argument -l json' -l json -d 'one JSON object a line'
complete -c notula -n '__notula_typed send' -l type -d 'type the text into the focused window'
complete -c notula -n '__notula_typed send' -l copy -d 'put the text on the clipboard'
complete -c notula -n '__notula_typed watch' -l json -d 'every line as notulad sends it'
complete -c notula -n '__notula_typed listen' -l format -d 's16le, f32le or vad'
complete -c notula -n '__notula_typed "listen --format"' -a 's16le f32le vad'
complete -c notula -n '__notula_typed dictate' -l silence -r -d 'the seconds without speech that send it'
complete -c notula -n '__notula_typed locale' -a '(__notula_locales)'

__notula_offer '__notula_typed models; or __notula_typed "help models"' \
    list\t'every supported locale and its state' install\t'download and install a model' \
    use\t'the model recordings in a locale use' remove\t'delete a model Notula installed' cancel\t'stop the download in flight'
complete -c notula -n '__notula_typed "models list"' -l all -d 'every model of every locale'
complete -c notula -n '__notula_typed "models install"' -a '(__notula_locales available)'
complete -c notula -n '__notula_typed "models remove"; or __notula_typed "models use"' -a '(__notula_locales installed)'
complete -c notula -n '__notula_typed "models install ?*"; or __notula_typed "models remove ?*"; and not __fish_seen_argument -l model' \
    -l model -r -d 'one model of the locale, by name'
complete -c notula -n '__notula_typed "models install ?* --model"; or __notula_typed "models remove ?* --model"; or __notula_typed "models use ?*"' \
    -a '(__notula_models (__notula_typed_locale))'

__notula_offer '__notula_typed memos; or __notula_typed "help memos"' \
    list\t'every memo, newest first' search\t'memos whose title or transcript match' \
    show\t"a memo's details and transcript" play\t"play a memo's audio" export\t'write a transcript' \
    rename\t'give a memo a title' transcribe\t"decode a memo's audio again" delete\t'delete a memo and its audio'
complete -c notula -n '__notula_typed "memos list"; or __notula_typed "memos search ?*"' -l json -d 'one JSON array'
complete -c notula -n '__notula_typed "memos show"; or __notula_typed "memos play"; or __notula_typed "memos export"; or __notula_typed "memos rename"; or __notula_typed "memos transcribe"; or __notula_typed "memos delete"' -a '(__notula_memos)'
complete -c notula -n '__notula_typed "memos transcribe ?*"; and not __fish_seen_argument -l locale' -l locale -r -d 'the locale to decode it in'
complete -c notula -n '__notula_typed "memos transcribe ?*"; and not __fish_seen_argument -l model' -l model -r -d 'the model to decode it with'
complete -c notula -n '__notula_typed "memos transcribe * --locale"' -a '(__notula_locales installed)'
complete -c notula -n '__notula_typed "memos transcribe * --model"' -a '(__notula_models)'
complete -c notula -n '__notula_typed "memos export ?*"; and not __notula_typed "memos export * --format*"' -l format -d 'txt, srt, vtt or json'
complete -c notula -n '__notula_typed "memos export * --format"' -a 'txt srt vtt json'
complete -c notula -n '__notula_typed "memos export * --format ?*"; and not __notula_typed "* -o*"' -s o -d 'write to a file'
complete -c notula -n '__notula_typed "memos export * -o"' -F
