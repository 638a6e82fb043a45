#!/usr/bin/env python3
"""Composes preview.png for the README from the icon and the generated templates (needs Pillow):
the app icon, then the 60 pt @3x template drawn as iOS draws a template — in one colour — on a light and
on a dark tile. Usage: make-preview.py ICONS_DIR"""
import os, sys
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
icons = sys.argv[1]
source = Image.open(os.path.join(HERE, "AppIcon.appiconset", "AppIcon-1024.png")).convert("RGBA").resize((180, 180), Image.LANCZOS)
template = Image.open(os.path.join(icons, "OpenInIcon60x60@3x.png")).convert("RGBA")
alpha = template.getchannel("A")
sheet = Image.new("RGBA", (3 * 220, 220), (255, 255, 255, 0))
sheet.alpha_composite(source, (20, 20))
for index, (tile, ink) in enumerate([((242, 242, 247), (0, 0, 0)), ((44, 44, 46), (255, 255, 255))]):
    x = 220 * (index + 1) + 20
    ImageDraw.Draw(sheet).rounded_rectangle([(x, 20), (x + 179, 199)], radius=40, fill=tile + (255,))
    sheet.paste(Image.new("RGBA", (180, 180), ink + (255,)), (x, 20), alpha)
sheet.save(os.path.join(HERE, "preview.png"), optimize=True)
