#!/usr/bin/env bash
# Generates the Open-In extension's template icons from this example's app icon into ./OpenInIconsOutput
# (replacing an earlier run's), then, when Pillow is installed, redraws preview.png from them.
set -euo pipefail
cd "$(dirname "$0")"
rulekit=${RULEKIT:-../../.build/debug/rulekit}
"$rulekit" open-in-icons AppIcon.appiconset -o OpenInIconsOutput --appiconset --force
if python3 -c "import PIL" 2>/dev/null; then python3 make-preview.py OpenInIconsOutput; fi
