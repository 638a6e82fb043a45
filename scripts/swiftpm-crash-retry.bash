# Sourced by the scripts CI runs. SwiftPM 6.3.1 on Linux now and then dies of a signal on its own, with
# nothing wrong in the package: CI at 5511315 lost a run when `swift build` of Examples/PluginUsage crashed
# with SIGSEGV inside libdispatch (the same command passed on the next try, cold). The same intermittent
# crash is reported against 6.3.1 in swiftlang/swift-package-manager#8171 and, in
# `_dispatch_event_loop_drain`, in moreSwift/swift-bundler#150.
#
# This `swift` runs the real one and, only when the process it started dies of SIGILL, SIGABRT, SIGBUS
# or SIGSEGV (exit status 128 + signal), says so and runs it again, at most twice. Every other outcome is
# returned as is: a compile error or a failing test exits 1 (a test process that crashes is reported by
# `swift test` with status 1, not by a signal of its own), and Ctrl-C (130) or SIGTERM (143) stop at once.
swift() {
  local status=0 attempt
  for attempt in 1 2 3; do
    status=0
    command swift "$@" || status=$?
    case "$status" in
      132 | 134 | 135 | 139)
        [ "$attempt" -lt 3 ] || break
        echo "$(basename "$0"): \`swift $*\` died of signal $((status - 128)); SwiftPM does so now and then" \
          "on its own: running it again" >&2
        ;;
      *) return "$status" ;;
    esac
  done
  return "$status"
}
