# How the installed `rulekit` is built, shared by scripts/install, check-static-binary, bench-configure,
# bench-peers and startup-order (sourced from the repository root, not run):
#
#   source scripts/release-build.bash
#   swift build "${release_build_flags[@]}"      # -c release --product rulekit, and on Linux the flags below
#   swiftc -O -static-stdlib "${release_swiftc_flags[@]}" …   # a program built as the installed binary is
#
# On Linux the Swift runtime and Foundation are linked in (--static-swift-stdlib), so the binary runs without
# the toolchain, and the link is chosen for start-up (docs/performance.md, "Issue 18, part 9: start-up"):
# - lld places the functions `configure` runs together (scripts/startup-order.txt, written by
#   scripts/startup-order), so they fill fewer of the 64 KiB blocks each page fault maps: 3 MiB less memory;
#   -function-sections gives each Swift function its own section, without which lld can move only a few
#   (0.8 MiB more);
# - --no-export-dynamic keeps RuleKit's 6 000 public symbols out of the dynamic symbol table, which the
#   runtime's dladdr walks at start-up and nothing else reads.
# These are flags of the build command, not unsafeFlags in Package.swift, which would make the package
# unusable as a dependency. The binary stays position-independent (ASLR): non-PIE would save 0.6 M
# instructions and 1.1 MiB more (the part 9 section says so), at the cost of a fixed load address.
release_build_flags=(-c release --product rulekit)
release_swiftc_flags=()
if [ "$(uname)" = Linux ]; then
  release_swiftc_flags=(-Xfrontend -function-sections -use-ld=lld -Xlinker --no-export-dynamic
    -Xlinker "--symbol-ordering-file=$(pwd)/scripts/startup-order.txt" -Xlinker --no-warn-symbol-ordering)
  release_build_flags+=(--static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
    -Xlinker --no-export-dynamic -Xlinker "--symbol-ordering-file=$(pwd)/scripts/startup-order.txt"
    -Xlinker --no-warn-symbol-ordering)
fi
