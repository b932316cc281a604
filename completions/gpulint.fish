# fish completion for gpulint. Install: gpulint completion fish > ~/.config/fish/completions/gpulint.fish
# (cmake --install puts it in share/fish/vendor_completions.d). tests/cli/completion_test.cpp
# checks that every option of every subcommand's --help is here.
set -l commands lint estimate fix parse explain rules models gpus version completion
complete -c gpulint -f
complete -c gpulint -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c gpulint -n "not __fish_seen_subcommand_from $commands" -l version -d "print the version"
complete -c gpulint -s h -l help -d "print help"

# Options of every command that reads scripts.
set -l input lint estimate fix parse
complete -c gpulint -n "__fish_seen_subcommand_from $input" -F
complete -c gpulint -n "__fish_seen_subcommand_from $input" -l stdin-filename -r -d "name to report stdin under"
complete -c gpulint -n "__fish_seen_subcommand_from $input" -l gpu -x -d "GPU the scripts run on"
complete -c gpulint -n "__fish_seen_subcommand_from $input rules models gpus" -l config -r -F -d "gpulint.toml to use"
complete -c gpulint -n "__fish_seen_subcommand_from $input" -l isolated -d "ignore every configuration file"
complete -c gpulint -n "__fish_seen_subcommand_from $input" -l env -x -d "NAME=VALUE the scripts read"
complete -c gpulint -n "__fish_seen_subcommand_from $input" -l output-file -r -F -d "also write the format here"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l format -x -a "text concise json jsonl sarif github rdjson rdjsonl gitlab markdown checkstyle junit"
complete -c gpulint -n "__fish_seen_subcommand_from estimate fix parse explain rules" -l format -x -a "text json markdown"
complete -c gpulint -n "__fish_seen_subcommand_from models gpus" -l format -x -a "text json"

# lint
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l select -x -d "only these rule ids, prefixes or names"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l ignore -x -d "skip these rule ids, prefixes or names"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l fail-on -x -a "error warning info"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l statistics -d "one row per rule with its count"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -s q -l quiet -d "the findings only"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l color -x -a "auto always never"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l fix -d "apply the safe fixes (fix --write)"
complete -c gpulint -n "__fish_seen_subcommand_from lint fix" -l diff -d "print the fixes as a diff"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l exit-zero -d "exit 0 even with findings"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l no-inline-suppress -d "ignore '# gpulint: disable'"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l baseline -r -F -d "report only findings not in this file"
complete -c gpulint -n "__fish_seen_subcommand_from lint" -l write-baseline -r -F -d "record the findings in this file"
complete -c gpulint -n "__fish_seen_subcommand_from lint fix" -l headroom -x -d "fraction of memory kept free"

# estimate
complete -c gpulint -n "__fish_seen_subcommand_from estimate fix" -l set -x -d "SETTING=VALUE override"
complete -c gpulint -n "__fish_seen_subcommand_from estimate" -l role -x -a "train serve rollout teacher reference reward critic eval"
complete -c gpulint -n "__fish_seen_subcommand_from estimate" -l model -x -d "HF id or catalog name"
complete -c gpulint -n "__fish_seen_subcommand_from estimate" -l framework -x -d "flag map whose defaults apply"

# fix
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l maximize -x -a "batch context"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l fit -d "cheapest change set that fits"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l write -d "apply the changes in place"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l follow-symlinks -d "write through links leaving the tree"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l unsafe-fixes -d "also apply unsafe fixes"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l keep -x -a "global-batch"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l pow2 -d "only powers of two"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -s q -l quiet -d "the diff only"
complete -c gpulint -n "__fish_seen_subcommand_from fix" -l workload -x -a "train serve rollout teacher reference reward critic eval"

# models, models add
complete -c gpulint -n "__fish_seen_subcommand_from models; and not __fish_seen_subcommand_from add" -a add -d "declare a model from its config.json"
complete -c gpulint -n "__fish_seen_subcommand_from models; and not __fish_seen_subcommand_from add" -l search -x -d "models whose name contains this"
complete -c gpulint -n "__fish_seen_subcommand_from add" -F
complete -c gpulint -n "__fish_seen_subcommand_from add" -l id -x -d "the name scripts use"
complete -c gpulint -n "__fish_seen_subcommand_from add" -l print -d "print the table, write nothing"

complete -c gpulint -n "__fish_seen_subcommand_from completion" -x -a "bash zsh fish"
