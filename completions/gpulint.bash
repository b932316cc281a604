# bash completion for gpulint. Install: gpulint completion bash > ~/.local/share/bash-completion/completions/gpulint
# (cmake --install puts it in share/bash-completion/completions). tests/cli/completion_test.cpp
# checks that every option of every subcommand's --help is here.
_gpulint() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="lint estimate fix parse explain rules models gpus version completion"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  local input="--help --stdin-filename --gpu --config --isolated --env --output-file --format"
  local opts formats="text json markdown"
  case ${COMP_WORDS[1]} in
    lint)
      opts="$input --select --ignore --fail-on --statistics -q --quiet --color --fix --diff --exit-zero --no-inline-suppress --baseline --write-baseline --headroom"
      formats="text concise json jsonl sarif github rdjson rdjsonl gitlab markdown checkstyle junit" ;;
    estimate) opts="$input --set --role --model --framework" ;;
    fix) opts="$input --maximize --fit --diff --write --follow-symlinks --unsafe-fixes --headroom --keep --pow2 --workload --set -q --quiet" ;;
    parse) opts="$input" ;;
    explain) opts="--help --format" ;;
    rules) opts="--help --format --config" ;;
    models)
      if [ "${COMP_WORDS[2]:-}" = add ] && [ "$COMP_CWORD" -gt 2 ]; then
        opts="--help --id --config --print"
      else
        opts="--help --search --format --config"; formats="text json"
        [ "$COMP_CWORD" -eq 2 ] && [[ $cur != -* ]] && { COMPREPLY=($(compgen -W "add" -- "$cur")); return; }
      fi ;;
    gpus) opts="--help --format --config"; formats="text json" ;;
    version) opts="--help" ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
    *) return ;;
  esac
  case $prev in
    --format) COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "error warning info" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --maximize) COMPREPLY=($(compgen -W "batch context" -- "$cur")); return ;;
    --keep) COMPREPLY=($(compgen -W "global-batch" -- "$cur")); return ;;
    --role|--workload) COMPREPLY=($(compgen -W "train serve rollout teacher reference reward critic eval" -- "$cur")); return ;;
    --gpu|--model|--framework|--search|--id|--set|--env|--select|--ignore|--headroom) return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -o bashdefault -F _gpulint gpulint
