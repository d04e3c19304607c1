# Sourced before each shell block of the docs (test/docs/commands.test.ts): `clockcheck` and
# `npx clockcheck` run the CLI from the sources ($CC_DEV_BIN), changed as the block's directives
# say, and each command's exit code, start and end times and words are appended to $CC_CODES.
#   CC_PLAN             `run` gets --plan
#   CC_REFERENCE        against the test's reference server: --ca $CC_CA where a --target has none,
#                       --rate-limit $CC_RATE_LIMIT for run and init against a target or profile
#   CC_APPEND           words appended to every command
#   CC_UNTIL_LISTENING  run until the `listening` line, then stop it (SIGTERM)

__cc() {
  local args=("$@") cmd="$1" a has_target=0 has_profile=0 has_ca=0 has_limit=0 rc out pid extra started
  for a in "$@"; do
    case "$a" in
      --target) has_target=1 ;;
      --profile) has_profile=1 ;;
      --ca | --insecure) has_ca=1 ;;
      --rate-limit) has_limit=1 ;;
    esac
  done
  if [ -n "$CC_PLAN" ] && [ "$cmd" = run ]; then args+=(--plan); fi
  if [ -n "$CC_REFERENCE" ]; then
    case "$cmd" in
      run | init | load) if [ $has_target = 1 ] && [ $has_ca = 0 ]; then args+=(--ca "$CC_CA"); fi ;;
    esac
    case "$cmd" in
      run | init) if [ $has_limit = 0 ] && [ $((has_target + has_profile)) -gt 0 ]; then args+=(--rate-limit "$CC_RATE_LIMIT"); fi ;;
    esac
    # A window of the reference server (1 s) since the block's last command ended, so that command
    # cannot spend this one's limit (before each block, the test gives the server a fresh limiter).
    if [ -n "$__cc_last_end" ]; then
      sleep "$(awk -v now="$EPOCHREALTIME" -v last="$__cc_last_end" 'BEGIN { d = 1.1 - (now - last); print (d > 0 ? d : 0) }')"
    fi
  fi
  if [ -n "$CC_APPEND" ]; then
    read -r -a extra <<< "$CC_APPEND"
    args+=("${extra[@]}")
  fi
  started=$EPOCHREALTIME
  if [ -n "$CC_UNTIL_LISTENING" ]; then
    out="$(mktemp)"
    node "$CC_DEV_BIN" "${args[@]}" > "$out" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
      grep -q '^listening ' "$out" && break
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    if grep -q '^listening ' "$out"; then
      kill -TERM "$pid"
      wait "$pid"
      rc=$?
    else
      wait "$pid"
      rc=$?
      # Ended without ever listening: not what the docs say it does.
      if [ $rc = 0 ]; then rc=98; fi
    fi
    cat "$out"
    rm -f "$out"
  else
    timeout "$CC_TIMEOUT" node "$CC_DEV_BIN" "${args[@]}"
    rc=$?
  fi
  __cc_last_end=$EPOCHREALTIME
  echo "$rc $started $__cc_last_end clockcheck ${args[*]}" >> "$CC_CODES"
  return $rc
}

clockcheck() { __cc "$@"; }

npx() {
  if [ "$1" = clockcheck ]; then
    shift
    __cc "$@"
  else
    echo "docs-test: only npx clockcheck is run here, not npx $1" >&2
    return 127
  fi
}
