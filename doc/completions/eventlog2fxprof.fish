# fish completion for eventlog2fxprof(1): commands, options, and .eventlog or .json.gz files.
# tests/cli/docs_cover_options.sh checks that every option the program defines is named here.

set -l commands convert dump summary compare serve record attach

# The command in use: the first word that is one, else convert.
function __eventlog2fxprof_command
    set -l words (commandline -opc)
    for w in $words[2..-1]
        switch $w
            case convert dump summary compare serve record attach
                echo $w
                return
            case --
                break
        end
    end
    echo convert
end

function __eventlog2fxprof_using
    contains -- (__eventlog2fxprof_command) $argv
end

# Files with the suffix, and directories to go into (__fish_complete_suffix lists every file).
function __eventlog2fxprof_files -a suffix
    set -l token (commandline -ct)
    for f in $token*$suffix $token*/
        echo $f
    end
end

# record -- PROGRAM ARGS...: complete the program's command line as its own.
function __eventlog2fxprof_program
    set -l words (commandline -opc)
    set -l at (contains -i -- -- $words)
    complete -C (string join -- ' ' (string escape -- $words[(math $at + 1)..-1]) (commandline -ct))
end

complete -c eventlog2fxprof -f

# Commands, first.
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a convert -d "write an eventlog's profile (the default)"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a dump -d "print the events as ghc-events show does"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a summary -d "the +RTS -s statistics, from the events"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a compare -d "the runs' figures side by side (BEFORE... -- AFTER...)"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a serve -d "serve profiles and print the link that opens them"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a record -d "run a GHC program, profile it, open the profile"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -a attach -d "record a running program's streamed eventlog"

# File arguments.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert dump summary compare" -a "(__eventlog2fxprof_files .eventlog)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using serve" -a "(__eventlog2fxprof_files .json.gz)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using attach" -F
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record; and contains -- -- (commandline -opc)" -a "(__eventlog2fxprof_program)"

# Every command.
complete -c eventlog2fxprof -s h -l help -d "show the help"
complete -c eventlog2fxprof -n "not __fish_seen_subcommand_from $commands" -s V -l version -d "print the version and the profile format it writes"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert dump summary compare record attach" -l strict -d "exit with status 3 if any data was lost"

# convert.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert record attach" -s o -l output -r -a "(__eventlog2fxprof_files .json.gz)" -d "where to write the profile"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert" -l input -r -a "(__eventlog2fxprof_files .eventlog)" -d "an eventlog"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert" -l names -x -d "name the runs, comma-separated"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert record attach" -l open -d "serve the profile and open it in the Firefox Profiler"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert record attach" -s q -l quiet -d "print nothing but warnings and errors"

# Conversion options: convert, record, attach.
set -l conv "__eventlog2fxprof_using convert record attach"
complete -c eventlog2fxprof -n $conv -l interval -x -d "sampling interval of the virtual timer (1ms, 200us)"
complete -c eventlog2fxprof -n $conv -l max-threads -x -d "Haskell threads with a track of their own"
complete -c eventlog2fxprof -n $conv -l all-threads -d "a track for every Haskell thread"
complete -c eventlog2fxprof -n $conv -l heap-bands -x -d "heap-profile bands in the band chart"
complete -c eventlog2fxprof -n $conv -l include-env -d "put the environment variables into the profile"
complete -c eventlog2fxprof -n $conv -l no-user-messages -d "leave traceEvent messages out"
complete -c eventlog2fxprof -n $conv -l spark-burst-gap -x -d "spark events closer than this make one marker"
complete -c eventlog2fxprof -n $conv -l marker-resolution -x -d "spans shorter than this are merged"
complete -c eventlog2fxprof -n $conv -l max-profile-size -x -d "keep the JSON within this size (200MB, 1GB, 0)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert record attach dump" -l stats -d "list the event types: counts, and where the profile shows each"
complete -c eventlog2fxprof -n $conv -l timings -d "print the wall time of each phase"
complete -c eventlog2fxprof -n $conv -l redact-args -d "write the program arguments as [redacted]"
complete -c eventlog2fxprof -n $conv -l redact-paths -d "reduce absolute paths to file names"

# Window options: convert, summary (dump has its own --from and --to).
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert summary dump" -l from -x -d "from this time on (1.5ms, 2s)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert summary dump" -l to -x -d "up to this time"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert summary" -l from-marker -x -d "start at the first message starting with this text"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using convert summary" -l to-marker -x -d "end at the first such message after the start"

# Serve options: serve, and convert, record, attach for --open.
set -l srv "__eventlog2fxprof_using convert serve record attach"
complete -c eventlog2fxprof -n $srv -l port -x -d "serve on this port"
complete -c eventlog2fxprof -n $srv -l address -x -d "listen on this IP address"
complete -c eventlog2fxprof -n $srv -l no-browser -d "do not open the link in a desktop browser"
complete -c eventlog2fxprof -n $srv -l profiler-url -x -d "the Firefox Profiler to link to"
complete -c eventlog2fxprof -n $srv -l sources -x -a "(__fish_complete_directories)" -d "the program's source directory"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using serve" -l files -r -a "(__eventlog2fxprof_files .json.gz)" -d "a profile to serve"

# dump.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using dump" -l type -x -a "CREATE_THREAD RUN_THREAD STOP_THREAD THREAD_RUNNABLE MIGRATE_THREAD THREAD_WAKEUP GC_START GC_END HEAP_ALLOCATED HEAP_SIZE HEAP_LIVE USER_MESSAGE USER_MARKER THREAD_LABEL SPARK_COUNTERS" -d "only events of this type"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using dump" -l cap -x -d "only events of this capability"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using dump" -l thread -x -d "only events about this Haskell thread"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using dump" -l spans -d "the threading analyses' spans"

# summary.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using summary" -l json -d "print JSON instead"

# compare.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using compare" -l json -d "print JSON instead"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using compare" -l fail-if -x -d "exit with status 5 if the change is beyond this (gc_elapsed>+10%)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using compare" -l input -r -a "(__eventlog2fxprof_files .eventlog)" -d "an eventlog"

# record.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record" -l heap -d "record heap profile samples"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record" -l sparks -d "record every spark event"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record" -l interval-rts -x -d "the RTS heap profile interval (100ms)"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record" -l rts -x -d "more RTS options, verbatim"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record" -l dry-run -d "print the command line it would run, and stop"
complete -c eventlog2fxprof -n "__eventlog2fxprof_using record attach" -l no-open -d "just write the profile"

# attach.
complete -c eventlog2fxprof -n "__eventlog2fxprof_using attach" -l duration -x -d "stop after this long (10s)"
