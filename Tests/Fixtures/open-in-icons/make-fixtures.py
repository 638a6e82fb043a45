#!/usr/bin/env python3
"""Writes the Open-In icon fixtures (deterministic; needs Pillow):

- Sample.app: a built app as Xcode leaves it: a binary Info.plist declaring CFBundleIcons (iPhone and iPad
  CFBundleIconFiles, CFBundleIconName) and the loose icon PNGs in Apple's CgBI form, made from
  Examples/OpenInIcons' icon by this script's own CgBI writer (premultiplied alpha, BGRA, raw deflate,
  a CgBI chunk before IHDR).
- CarOnly.app: an app whose icon is only in its compiled asset catalog (Assets.car here is a placeholder
  file: rulekit never reads it, only notices it).
- Round.png: a transparent icon (a ring and a dot), 256 × 256, whose alpha is its shape.
- DarkAppearance.appiconset: Xcode 16's single-size set with dark and tinted variants listed first.
"""
import os, plistlib, shutil, struct, zlib
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
ICON = os.path.join(HERE, "..", "..", "..", "Examples", "OpenInIcons", "AppIcon.appiconset", "AppIcon-1024.png")


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def cgbi(image):
    """Apple's CgBI PNG of an RGBA image: premultiplied, BGRA, raw deflate (no zlib header), filter 0."""
    w, h = image.size
    raw = bytearray()
    data = image.tobytes()
    for y in range(h):
        raw.append(0)
        for x in range(w):
            r, g, b, a = data[(y * w + x) * 4:(y * w + x) * 4 + 4]
            raw += bytes(((b * a + 127) // 255, (g * a + 127) // 255, (r * a + 127) // 255, a))
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    idat = compressor.compress(bytes(raw)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"CgBI", b"\x50\x00\x20\x06") + chunk(b"IHDR", ihdr) + \
        chunk(b"IDAT", idat) + chunk(b"IEND", b"")


icon = Image.open(ICON).convert("RGBA")
app = os.path.join(HERE, "Sample.app")
shutil.rmtree(app, ignore_errors=True)
os.makedirs(app)
for name, size in [("AppIcon60x60@2x.png", 120), ("AppIcon60x60@3x.png", 180), ("AppIcon76x76@2x~ipad.png", 152)]:
    with open(os.path.join(app, name), "wb") as f:
        f.write(cgbi(icon.resize((size, size), Image.LANCZOS)))
info = {
    "CFBundleIdentifier": "com.example.sample", "CFBundleExecutable": "Sample", "CFBundlePackageType": "APPL",
    "CFBundleIcons": {"CFBundlePrimaryIcon": {"CFBundleIconFiles": ["AppIcon60x60"], "CFBundleIconName": "AppIcon"}},
    "CFBundleIcons~ipad": {"CFBundlePrimaryIcon": {"CFBundleIconFiles": ["AppIcon60x60", "AppIcon76x76"],
                                                   "CFBundleIconName": "AppIcon"}},
}
with open(os.path.join(app, "Info.plist"), "wb") as f:
    plistlib.dump(info, f, fmt=plistlib.FMT_BINARY, sort_keys=True)

car = os.path.join(HERE, "CarOnly.app")
shutil.rmtree(car, ignore_errors=True)
os.makedirs(car)
info = {"CFBundleIdentifier": "com.example.caronly",
        "CFBundleIcons": {"CFBundlePrimaryIcon": {"CFBundleIconName": "AppIcon"}}}
with open(os.path.join(car, "Info.plist"), "wb") as f:
    plistlib.dump(info, f, fmt=plistlib.FMT_BINARY, sort_keys=True)
with open(os.path.join(car, "Assets.car"), "wb") as f:
    f.write(b"placeholder for a compiled asset catalog; rulekit does not read it\n")

big = Image.new("L", (1024, 1024), 0)
d = ImageDraw.Draw(big)
d.ellipse([(112, 112), (912, 912)], fill=255)
d.ellipse([(272, 272), (752, 752)], fill=0)
d.ellipse([(432, 432), (592, 592)], fill=255)
round_icon = Image.new("RGBA", (256, 256), (200, 30, 60, 0))
round_icon.putalpha(big.resize((256, 256), Image.LANCZOS))
round_icon.save(os.path.join(HERE, "Round.png"))

dark = os.path.join(HERE, "DarkAppearance.appiconset")
shutil.rmtree(dark, ignore_errors=True)
os.makedirs(dark)
icon.resize((256, 256), Image.LANCZOS).save(os.path.join(dark, "light.png"))
Image.new("RGBA", (512, 512), (0, 0, 0, 255)).save(os.path.join(dark, "dark.png"))
contents = '''{
  "images" : [
    {
      "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
      "filename" : "dark.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024"
    },
    { "filename" : "light.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" }
  ],
  "info" : { "author" : "xcode", "version" : 1 }
}
'''
open(os.path.join(dark, "Contents.json"), "w").write(contents)
