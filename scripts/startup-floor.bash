# The start-up floor of `rulekit configure`, shared by scripts/bench-configure and scripts/bench-peers
# (sourced, not run): minimal Swift executables built by the same compiler with the same flags, and the
# configure command both scripts time.
#
#   source scripts/startup-floor.bash
#   startup_floor_build SCRATCH [static]   # SCRATCH/minimal, essentials, foundation (and -static builds)
#   startup_peak_kib RUNS COMMAND…         # lowest peak resident memory of RUNS runs (GNU time %M), KiB
#
# The -static builds are built as the installed binary is (scripts/release-build.bash: -static-stdlib and
# its flags, the symbol ordering file included), so a ratio to them compares like with like.

# minimal prints a line (the floor); essentials also loads FoundationEssentials (the floor of anything
# linking what rulekit links); foundation loads Foundation (the floor of any Foundation tool).
startup_floor_programs=(minimal essentials foundation)

# Run from the repository root, on the example app, writing nothing.
startup_configure_arguments=(configure -i Examples/SampleApp/App/Info.plist -e Examples/SampleApp/App/App.entitlements
  --dry-run)

source scripts/release-build.bash

startup_floor_build() {
  local scratch=$1 linking=${2:-shared} program
  mkdir -p "$scratch"
  printf 'print("ok")\n' >"$scratch/minimal.swift"
  # Each program uses what it imports, so the library is loaded at start-up.
  printf 'import FoundationEssentials\nprint(Date(timeIntervalSince1970: 0) < Date())\n' >"$scratch/essentials.swift"
  printf 'import Foundation\nprint(FileManager.default.fileExists(atPath: "/"))\n' >"$scratch/foundation.swift"
  for program in "${startup_floor_programs[@]}"; do
    # -O, as `swift build -c release` compiles.
    swiftc -O "$scratch/$program.swift" -o "$scratch/$program" 2>/dev/null
    if [ "$linking" = static ]; then
      swiftc -O -static-stdlib "${release_swiftc_flags[@]}" "$scratch/$program.swift" -o "$scratch/$program-static" \
        2>/dev/null
    fi
  done
}

startup_peak_kib() {
  local runs=$1 best="" kib output
  shift
  output=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -f %M -o "$output" "$@" >/dev/null 2>&1
    kib=$(tail -1 "$output")
    if [ -z "$best" ] || [ "$kib" -lt "$best" ]; then best=$kib; fi
  done
  rm -f "$output"
  echo "$best"
}
