#!/usr/bin/env python3
"""Writes the PNG fixtures of PNGImagesTests and the end-to-end tests (run from anywhere; deterministic).

Every colour type and bit depth of the PNG specification, plain and Adam7-interlaced, with tRNS
transparency where the type allows it, rows filtered with all five filter types in turn. Written by this
script's own small encoder (Python's zlib), so the fixtures do not depend on what any one library can
write; each file's expected pixels (8-bit RGBA, straight alpha) go to NAME.rgba, and Pillow, when it is
installed, decodes every file as a cross-check.

Bad files: not-png.png (a text file), truncated.png, bad-crc.png, huge-header.png (IHDR 100000 × 100000
with a valid CRC), bomb.png (IHDR 16 × 16 whose IDAT inflates to 50 MB of zeros).
"""
import json, os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 13, 11  # odd sizes: Adam7's passes have partial columns and rows


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_rows(rows, bpp):
    out, prev = bytearray(), bytes(len(rows[0])) if rows else b""
    for n, row in enumerate(rows):
        kind = n % 5
        out.append(kind)
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((x - pred) & 0xFF)
        prev = row
    return bytes(out)


def pack(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc, bits = (acc << depth) | s, bits + depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def encode(width, height, color, depth, pixels, interlace, extra=b""):
    """pixels: rows of per-pixel sample tuples at the file's depth."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    bpp = max(1, channels * depth // 8)
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] \
        if interlace else [(0, 0, 1, 1)]
    raw = b""
    for xs, ys, dx, dy in passes:
        rows = []
        for y in range(ys, height, dy):
            samples = [s for x in range(xs, width, dx) for s in pixels[y][x]]
            if samples:
                rows.append(pack(samples, depth))
        if rows:
            raw += filter_rows(rows, bpp)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def base(x, y):
    """The test picture in 8-bit RGBA: gradients, a diagonal, alpha steps."""
    r = (x * 255) // (W - 1)
    g = (y * 255) // (H - 1)
    b = 255 if x == y else (x * y * 7) % 256
    a = [0, 64, 128, 255][(x + y) % 4]
    return r, g, b, a


def write(name, data, rgba, width=W, height=H):
    with open(os.path.join(HERE, name + ".png"), "wb") as f:
        f.write(data)
    with open(os.path.join(HERE, name + ".rgba"), "wb") as f:
        f.write(bytes(v for row in rgba for px in row for v in px))
    return {"name": name, "width": width, "height": height}


def up(v, depth):
    """An 8-bit value as a sample of `depth` bits that scales back to it exactly."""
    return v * 257 if depth == 16 else v


def cases():
    out = []
    for interlace in (False, True):
        tag = "-adam7" if interlace else ""
        for depth in (1, 2, 4, 8, 16):  # grey
            m = (1 << depth) - 1
            samples = [[(((x + 2 * y) % (m + 1)),) for x in range(W)] for y in range(H)] if depth < 8 else \
                [[(up(base(x, y)[0], depth),) for x in range(W)] for y in range(H)]
            gray = lambda s: (s * 255 // m) if depth < 8 else s // (257 if depth == 16 else 1)
            rgba = [[(gray(s[0]),) * 3 + (255,) for s in row] for row in samples]
            out.append(write(f"gray{depth}{tag}", encode(W, H, 0, depth, samples, interlace), rgba))
        for depth in (8, 16):  # grey with a transparent grey, RGB, RGB with tRNS, grey+alpha, RGBA
            key = up(base(3, 0)[0], depth)
            samples = [[(up(base(x, y)[0], depth),) for x in range(W)] for y in range(H)]
            rgba = [[(base(x, y)[0],) * 3 + (0 if samples[y][x][0] == key else 255,) for x in range(W)] for y in range(H)]
            out.append(write(f"gray{depth}-trns{tag}", encode(W, H, 0, depth, samples, interlace, chunk(b"tRNS", struct.pack(">H", key))), rgba))
            samples = [[tuple(up(v, depth) for v in base(x, y)[:3]) for x in range(W)] for y in range(H)]
            rgba = [[base(x, y)[:3] + (255,) for x in range(W)] for y in range(H)]
            out.append(write(f"rgb{depth}{tag}", encode(W, H, 2, depth, samples, interlace), rgba))
            key = samples[2][5]
            rgba = [[base(x, y)[:3] + (0 if samples[y][x] == key else 255,) for x in range(W)] for y in range(H)]
            out.append(write(f"rgb{depth}-trns{tag}", encode(W, H, 2, depth, samples, interlace, chunk(b"tRNS", struct.pack(">HHH", *key))), rgba))
            samples = [[(up(base(x, y)[1], depth), up(base(x, y)[3], depth)) for x in range(W)] for y in range(H)]
            rgba = [[(base(x, y)[1],) * 3 + (base(x, y)[3],) for x in range(W)] for y in range(H)]
            out.append(write(f"graya{depth}{tag}", encode(W, H, 4, depth, samples, interlace), rgba))
            samples = [[tuple(up(v, depth) for v in base(x, y)) for x in range(W)] for y in range(H)]
            rgba = [[base(x, y) for x in range(W)] for y in range(H)]
            out.append(write(f"rgba{depth}{tag}", encode(W, H, 6, depth, samples, interlace), rgba))
        for depth in (1, 2, 4, 8):  # palette, with tRNS alpha for the first entries
            n = 1 << depth
            palette = [((i * 53) % 256, (i * 97) % 256, (i * 151) % 256) for i in range(n)]
            alphas = [(i * 85) % 256 for i in range(min(n, 3))]
            samples = [[((x * 3 + y) % n,) for x in range(W)] for y in range(H)]
            extra = chunk(b"PLTE", bytes(v for p in palette for v in p)) + chunk(b"tRNS", bytes(alphas))
            rgba = [[palette[s[0]] + ((alphas[s[0]] if s[0] < len(alphas) else 255),) for s in row] for row in samples]
            out.append(write(f"palette{depth}{tag}", encode(W, H, 3, depth, samples, interlace, extra), rgba))
    tiny = [[base(x, y) for x in range(3)] for y in range(2)]
    out.append(write("rgba8-tiny-adam7", encode(3, 2, 6, 8, tiny, True), tiny, 3, 2))
    return out


def bad():
    good = open(os.path.join(HERE, "rgba8.png"), "rb").read()
    open(os.path.join(HERE, "bad", "not-png.png"), "wb").write(b"this is a text file, not a PNG image\n")
    open(os.path.join(HERE, "bad", "truncated.png"), "wb").write(good[: len(good) // 2])
    damaged = bytearray(good)
    damaged[45] ^= 0x01  # a byte inside IDAT's data: the CRC no longer matches
    open(os.path.join(HERE, "bad", "bad-crc.png"), "wb").write(bytes(damaged))
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + chunk(b"IEND", b"")
    open(os.path.join(HERE, "bad", "huge-header.png"), "wb").write(huge)
    ihdr = struct.pack(">IIBBBBB", 16, 16, 8, 6, 0, 0, 0)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 50_000_000, 9)) + chunk(b"IEND", b"")
    open(os.path.join(HERE, "bad", "bomb.png"), "wb").write(bomb)


def cross_check(manifest):
    try:
        from PIL import Image
    except ImportError:
        print("make-fixtures: Pillow not installed; no cross-check")
        return
    checked = 0
    for case in manifest:
        image = Image.open(os.path.join(HERE, case["name"] + ".png"))
        if image.mode in ("I", "I;16", "I;16B"):
            continue  # Pillow keeps 16-bit grey as integers; its RGBA conversion clips rather than scales
        expected = open(os.path.join(HERE, case["name"] + ".rgba"), "rb").read()
        got = image.convert("RGBA").tobytes()
        assert got == expected, case["name"]
        checked += 1
    print(f"make-fixtures: Pillow decodes {checked} of {len(manifest)} fixtures to the expected pixels")


os.makedirs(os.path.join(HERE, "bad"), exist_ok=True)
manifest = cases()
json.dump(manifest, open(os.path.join(HERE, "fixtures.json"), "w"), indent=1)
bad()
cross_check(manifest)
