#!/usr/bin/python3
"""What a screenshot shows, for the tray tests. Areas are X Y WIDTH HEIGHT.
  pixels.py red FILE X Y W H          share of pixels inside red areas (Breeze's record symbol, #da4453) and their centre: SHARE CX CY
  pixels.py changed FILE1 FILE2 X Y W H   box of the pixels that differ between two screenshots: X Y W H, or 'none'
  pixels.py menu BEFORE AFTER X Y W H  a menu opened between two screenshots: its box 'X Y W H' on the first line,
                                      then one 'TOP BOTTOM' per line of text in it, top to bottom; 'none' if none
  pixels.py clusters FILE X Y W H     the groups of dark marks along a strip (a panel), left to right: 'LEFT RIGHT'
  pixels.py icon FILE X Y W H NAME...  how well the icon on the highlighted tile in the area (the tray's popup of
                                      hidden items) matches each symbolic icon NAME of Breeze: 'NAME SCORE' each,
                                      SCORE the overlap of their shapes from 0 to 1"""
import glob
import sys

import gi

gi.require_version('GdkPixbuf', '2.0')
from gi.repository import GdkPixbuf


class Picture:
    def __init__(self, path):
        pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
        self.pixels, self.stride, self.channels = pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_n_channels()

    def at(self, x, y):
        start = y * self.stride + x * self.channels
        return tuple(self.pixels[start:start + 3])


def red(path, x0, y0, width, height):
    """Only the inside of a red area counts, pixels with red all round them for 2 pixels: a filled disc, not a thin
    red stroke (Plasma's do-not-disturb bell is struck through in red)."""
    picture = Picture(path)

    def is_red(x, y):
        r, g, b = picture.at(x, y)
        return r > 150 and g < 110 and b < 120 and r - g > 80

    reds = {(x, y) for y in range(y0, y0 + height) for x in range(x0, x0 + width) if is_red(x, y)}
    found = [(x, y) for x, y in reds if all((x + dx, y + dy) in reds for dx in range(-2, 3) for dy in range(-2, 3))]
    if not found:
        return '0 -1 -1'
    return '%.4f %d %d' % (len(found) / (width * height), sum(p[0] for p in found) // len(found),
                           sum(p[1] for p in found) // len(found))


def changed(first, second, x0, y0, width, height):
    a, b = Picture(first), Picture(second)
    differing = [(x, y) for y in range(y0, y0 + height) for x in range(x0, x0 + width) if a.at(x, y) != b.at(x, y)]
    if not differing:
        return 'none'
    xs, ys = [p[0] for p in differing], [p[1] for p in differing]
    return '%d %d %d %d' % (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def menu(before, after, x0, y0, width, height):
    """The menu is the one large area of a single colour that came: the rows and columns holding many changed
    pixels of the most common changed colour. Elsewhere only small things change (a notification's countdown)."""
    a, b = Picture(before), Picture(after)
    changed = [(x, y, b.at(x, y)) for y in range(y0, y0 + height) for x in range(x0, x0 + width) if a.at(x, y) != b.at(x, y)]
    if not changed:
        return 'none'
    counts = {}
    for _, _, colour in changed:
        counts[colour] = counts.get(colour, 0) + 1
    background = max(counts, key=counts.get)
    rows, columns = {}, {}
    for x, y, colour in changed:
        if colour == background:
            rows[y] = rows.get(y, 0) + 1
            columns[x] = columns.get(x, 0) + 1
    ys = [y for y, n in rows.items() if n >= 20]
    xs = [x for x, n in columns.items() if n >= 20]
    if not ys or not xs:
        return 'none'
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    found = ['%d %d %d %d' % (left, top, right - left + 1, bottom - top + 1)]

    def ink(x, y):
        return sum(abs(c - d) for c, d in zip(b.at(x, y), background)) > 150

    # Inside the box, inset past its border: a row of glyphs is several pixels high, a separator one rule.
    inked = [any(ink(x, y) for x in range(left + 4, right - 3)) for y in range(top + 2, bottom - 1)]
    start = None
    for offset, has in enumerate(inked + [False]):
        if has and start is None:
            start = offset
        elif not has and start is not None:
            if offset - start >= 5:
                found.append('%d %d' % (top + 2 + start, top + 2 + offset - 1))
            start = None
    return '\n'.join(found)


def clusters(path, x0, y0, width, height):
    """Columns holding a pixel far darker than the strip's most common colour, grouped where fewer than 10 empty
    columns part them: a panel's icons and its clock, each one group."""
    picture = Picture(path)
    counts = {}
    for y in range(y0, y0 + height):
        for x in range(x0, x0 + width):
            counts[picture.at(x, y)] = counts.get(picture.at(x, y), 0) + 1
    background = max(counts, key=counts.get)
    marked = [any(sum(background) - sum(picture.at(x, y)) > 150 for y in range(y0, y0 + height)) for x in range(x0, x0 + width)]
    groups, left, gap = [], None, 0
    for offset, has in enumerate(marked + [False] * 10):
        if has:
            left, gap = (offset if left is None else left), 0
        elif left is not None:
            gap += 1
            if gap == 10:
                groups.append('%d %d' % (x0 + left, x0 + offset - 10))
                left, gap = None, 0
    return '\n'.join(groups)


def icon(path, x0, y0, width, height, *names):
    """The tile is the area of the highlight's light blue; its icon, the dark mark at its top (the label is below). Each candidate is drawn from its SVG at every size until its shape is as large as the mark's, and the
    two shapes compared: the pixels both cover, out of those either covers."""
    picture = Picture(path)

    def highlight(x, y):
        r, g, b = picture.at(x, y)
        return b - r > 40 and g > 200 and b > 220

    rows, columns = {}, {}
    for y in range(y0, y0 + height):
        for x in range(x0, x0 + width):
            if highlight(x, y):
                rows[y] = rows.get(y, 0) + 1
                columns[x] = columns.get(x, 0) + 1
    ys = longest_run(sorted(y for y, n in rows.items() if n >= 20))
    xs = longest_run(sorted(x for x, n in columns.items() if n >= 20))
    if not ys or not xs:
        return 'none'
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    ink = {(x, y) for y in range(top + 2, bottom - 1) for x in range(left + 2, right - 1) if sum(picture.at(x, y)) < 300}
    if not ink:
        return 'none'
    # The icon's rows: the first run of inked rows, where no more than 3 rows in a row are blank.
    inked_rows = sorted({y for _, y in ink})
    last = inked_rows[0]
    for y in inked_rows[1:]:
        if y - last > 4:
            break
        last = y
    mark = {(x, y) for x, y in ink if y <= last}
    mark = normalised(mark)
    mark_width, mark_height = max(x for x, _ in mark) + 1, max(y for _, y in mark) + 1
    scores = []
    for name in names:
        best = 0.0
        for svg in glob.glob('/usr/share/icons/breeze/*/symbolic/%s.svg' % name):
            for size in range(8, 64):
                drawn = GdkPixbuf.Pixbuf.new_from_file_at_size(svg, size, size)
                pixels, stride, channels = drawn.get_pixels(), drawn.get_rowstride(), drawn.get_n_channels()
                shape = {(x, y) for y in range(drawn.get_height()) for x in range(drawn.get_width())
                         if pixels[y * stride + x * channels + 3] > 128}
                if not shape:
                    continue
                shape = normalised(shape)
                if abs(max(x for x, _ in shape) + 1 - mark_width) <= 1 and abs(max(y for _, y in shape) + 1 - mark_height) <= 1:
                    best = max(best, len(mark & shape) / len(mark | shape))
        scores.append('%s %.3f' % (name, best))
    return '\n'.join(scores)


def longest_run(numbers):
    """The longest run of consecutive numbers in a sorted list: one tile, not a blue icon beside it."""
    runs = [[]]
    for number in numbers:
        if runs[-1] and number - runs[-1][-1] > 1:
            runs.append([])
        runs[-1].append(number)
    return max(runs, key=len)


def normalised(points):
    """The points moved to start at (0, 0)."""
    left, top = min(x for x, _ in points), min(y for _, y in points)
    return {(x - left, y - top) for x, y in points}


command, arguments = sys.argv[1], sys.argv[2:]
if command == 'icon':
    print(icon(arguments[0], *map(int, arguments[1:5]), *arguments[5:]))
elif command in ('changed', 'menu'):
    print({'changed': changed, 'menu': menu}[command](arguments[0], arguments[1], *map(int, arguments[2:6])))
else:
    print({'red': red, 'clusters': clusters}[command](arguments[0], *map(int, arguments[1:5])))
