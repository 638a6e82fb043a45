#!/bin/sh
# Xcode "Run Script" build phase for an app target that embeds share or action extensions:
#   1. `rulekit lint --format xcode` on every extension Info.plist in the first input file list, so findings
#      appear in Xcode's issue navigator at the rule's line; errors fail the build, warnings do not
#      (RULEKIT_LINT_STRICT=1 makes warnings fail it too; RULEKIT_LINT=skip leaves linting out).
#   2. `rulekit configure -i "$INFOPLIST_FILE" -e "$CODE_SIGN_ENTITLEMENTS"`, IntuneMAMConfigurator's job: it
#      edits only what is missing and a second run changes nothing. RULEKIT_CONFIGURE=check reports the
#      changes as warnings and writes nothing (for sandboxed script phases and for CI); RULEKIT_CONFIGURE=skip
#      leaves configuration out.
#   3. Touches the phase's first output file, so Xcode skips the phase until an input changes.
#
# Set up in README.md beside this script. Xcode passes SRCROOT, INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS,
# SCRIPT_INPUT_FILE_LIST_0 and SCRIPT_OUTPUT_FILE_0; RULEKIT names the binary when it is not on PATH.
set -eu

rulekit=${RULEKIT:-$(command -v rulekit || echo /usr/local/bin/rulekit)}
if [ ! -x "$rulekit" ]; then
  echo "warning: rulekit not found (looked for ${rulekit}); install it with 'make install' in a RuleKit checkout"
  exit 0
fi

# Xcode's build settings are relative to the project folder unless absolute.
in_project() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "${SRCROOT:-.}/$1" ;;
  esac
}

status=0

# 1. Lint the extensions' rules. `rulekit lint` exits 1 for warnings as well as errors, so the build fails
#    on the printed severities instead.
if [ "${RULEKIT_LINT:-lint}" != skip ] && [ -n "${SCRIPT_INPUT_FILE_LIST_0:-}" ] \
  && [ -f "$SCRIPT_INPUT_FILE_LIST_0" ]; then
  findings=$(mktemp "${TMPDIR:-/tmp}/rulekit-lint.XXXXXX")
  errors=$(mktemp "${TMPDIR:-/tmp}/rulekit-lint-errors.XXXXXX")
  lint_status=0
  # The resolved file list holds one path per line; blank lines and # comments are skipped.
  grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$SCRIPT_INPUT_FILE_LIST_0" | {
    set --
    while IFS= read -r plist; do set -- "$@" "$plist"; done
    [ "$#" -eq 0 ] || "$rulekit" lint --format xcode "$@"
  } >"$findings" 2>"$errors" || lint_status=$?
  cat "$findings" "$errors"
  if [ "$lint_status" -gt 1 ]; then
    # A file that cannot be read: rulekit's own `file:line:column: error:` line above says which and why.
    # Only when it printed none (it crashed, say) does the phase say something itself.
    grep -q 'error: ' "$errors" ||
      echo "error: rulekit lint failed without a message (exit status ${lint_status})"
    status=1
  elif grep -q ': error: ' "$findings"; then
    status=1
  elif [ "${RULEKIT_LINT_STRICT:-0}" = 1 ] && grep -q ': warning: ' "$findings"; then
    status=1
  fi
  rm -f "$findings" "$errors"
fi

# 2. Configure the target's Info.plist for Intune.
mode=${RULEKIT_CONFIGURE:-apply}
if [ "$mode" != skip ] && [ -n "${INFOPLIST_FILE:-}" ]; then
  info=$(in_project "$INFOPLIST_FILE")
  if [ -z "${CODE_SIGN_ENTITLEMENTS:-}" ]; then
    echo "error: CODE_SIGN_ENTITLEMENTS is empty: rulekit configure needs the target's entitlements file"
    exit 1
  fi
  entitlements=$(in_project "$CODE_SIGN_ENTITLEMENTS")
  if [ "$mode" = check ]; then
    # A dry run prints the diff of what configure would change; any diff means the plist is out of date.
    # Its report (standard error) is wanted only when it fails: then it says why.
    report=$(mktemp "${TMPDIR:-/tmp}/rulekit-configure.XXXXXX")
    configure_status=0
    pending=$("$rulekit" configure -i "$info" -e "$entitlements" --dry-run --diff 2>"$report") ||
      configure_status=$?
    if [ "$configure_status" -ne 0 ]; then
      cat "$report"
      grep -q 'error: ' "$report" ||
        echo "${info}:1:1: error: rulekit configure cannot plan the changes (exit status ${configure_status}); the lines above say why"
      rm -f "$report"
      exit 1
    fi
    rm -f "$report"
    if [ -n "$pending" ]; then
      echo "${info}:1:1: warning: not configured for Intune; run: rulekit configure -i ${info} -e ${entitlements}"
    fi
  else
    # The report goes to stderr as `file:line:column: warning: …` lines Xcode shows as issues.
    "$rulekit" configure -i "$info" -e "$entitlements" || status=1
  fi
fi

# 3. Record the run for Xcode's dependency analysis.
if [ "$status" -eq 0 ] && [ -n "${SCRIPT_OUTPUT_FILE_0:-}" ]; then
  mkdir -p "$(dirname "$SCRIPT_OUTPUT_FILE_0")"
  touch "$SCRIPT_OUTPUT_FILE_0"
fi
exit "$status"
