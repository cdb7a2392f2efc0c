# bash completion for eventlog2fxprof(1): commands, options, and .eventlog or .json.gz files.
# tests/cli/docs_cover_options.sh checks that every option the program defines is named here.

_eventlog2fxprof() {
    local cur prev words cword
    _init_completion || return

    local commands="convert dump summary compare serve record attach"
    local common="-h --help"
    local conversion="--interval --max-threads --all-threads --heap-bands --include-env
        --no-user-messages --spark-burst-gap --marker-resolution --max-profile-size --stats
        --timings --redact-args --redact-paths"
    local window="--from --to --from-marker --to-marker"
    local serving="--port --address --no-browser --profiler-url --sources"
    local recording="-o --output --open --no-open --strict -q --quiet"

    # The command is the first word after the program name that is one; none means convert.
    local command=convert i
    for ((i = 1; i < cword; i++)); do
        if [[ " $commands " == *" ${words[i]} "* ]]; then
            command=${words[i]}
            break
        fi
        # record: everything after -- is the program's command line.
        [[ ${words[i]} == -- ]] && break
    done

    if [[ $command == record ]]; then
        for ((i = 1; i < cword; i++)); do
            if [[ ${words[i]} == -- ]]; then
                # Complete the program, then its own arguments, as the shell would.
                _command_offset $((i + 1))
                return
            fi
        done
    fi

    # Option values.
    case $prev in
        -o | --output)
            _filedir 'json.gz'
            return ;;
        --sources)
            _filedir -d
            return ;;
        --input)
            _filedir eventlog
            return ;;
        --files)
            _filedir 'json?(.gz)'
            return ;;
        --type)
            COMPREPLY=($(compgen -W "CREATE_THREAD RUN_THREAD STOP_THREAD THREAD_RUNNABLE MIGRATE_THREAD
                THREAD_WAKEUP GC_START GC_END REQUEST_SEQ_GC REQUEST_PAR_GC HEAP_ALLOCATED HEAP_SIZE
                HEAP_LIVE USER_MESSAGE USER_MARKER THREAD_LABEL SPARK_COUNTERS" -- "$cur"))
            return ;;
        --interval | --spark-burst-gap | --marker-resolution | --from | --to | --duration | \
            --interval-rts | --max-threads | --heap-bands | --max-profile-size | --cap | --thread | \
            --port | --address | --profiler-url | --rts | --names | --from-marker | --to-marker | --fail-if)
            return ;;  # a value of the user's own
    esac

    local options files
    case $command in
        convert)
            options="$common -V --version -o --output --input --names --open --strict -q --quiet $conversion $window $serving"
            files=eventlog ;;
        dump)
            options="$common --type --cap --thread --from --to --stats --spans --strict"
            files=eventlog ;;
        summary)
            options="$common --json --strict $window"
            files=eventlog ;;
        compare)
            options="$common --json --fail-if --strict --input"
            files=eventlog ;;
        serve)
            options="$common --files $serving"
            files='json?(.gz)' ;;
        record)
            options="$common --heap --sparks --interval-rts --rts --dry-run $recording $conversion $serving" ;;
        attach)
            options="$common --duration $recording $conversion $serving" ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    case $command in
        record)
            COMPREPLY=($(compgen -c -- "$cur")) ;;
        attach)
            _filedir ;;  # a socket or a FIFO
        *)
            # The first word may still be a command.
            if ((cword == 1)); then
                COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            fi
            _filedir "$files" ;;
    esac
} &&
    complete -F _eventlog2fxprof eventlog2fxprof
