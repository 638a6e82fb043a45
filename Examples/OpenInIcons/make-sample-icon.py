#!/usr/bin/env python3
"""Draws the example app icon (our own design, same licence as RuleKit): a white document with a folded
corner and an arrow on a blue gradient, 1024 × 1024, as Xcode 14+'s single-size AppIcon.appiconset.
Needs Pillow (pip install pillow). Deterministic."""
import os
from PIL import Image, ImageDraw

S = 1024
HERE = os.path.dirname(os.path.abspath(__file__))
image = Image.new("RGB", (S, S))
draw = ImageDraw.Draw(image)
for y in range(S):  # top-to-bottom gradient, the usual iOS icon background
    t = y / (S - 1)
    draw.line([(0, y), (S, y)], fill=(int(30 + 20 * t), int(120 - 40 * t), int(230 - 30 * t)))
# Drawn at 4× and reduced, so the edges are anti-aliased as a designer's export would be.
big = Image.new("L", (S * 4, S * 4), 0)
d = ImageDraw.Draw(big)
k = 4
page = [(300, 200), (580, 200), (580, 360), (740, 360), (740, 820), (300, 820)]
d.polygon([(x * k, y * k) for x, y in page], fill=255)
d.polygon([(610 * k, 200 * k), (740 * k, 330 * k), (610 * k, 330 * k)], fill=255)  # the folded corner
d.rectangle([(380 * k, 520 * k), (560 * k, 580 * k)], fill=0)  # arrow shaft
d.polygon([(560 * k, 460 * k), (660 * k, 550 * k), (560 * k, 640 * k)], fill=0)  # arrow head
mask = big.resize((S, S), Image.LANCZOS)
image.paste((255, 255, 255), (0, 0), mask)
image.save(os.path.join(HERE, "AppIcon.appiconset", "AppIcon-1024.png"), optimize=True)
