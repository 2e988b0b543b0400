#!/usr/bin/python3
"""Saves KWin's screen as the PNG argv[1], through org.kde.KWin.ScreenShot2.CaptureScreen (KWin 5.27): the picture
the user sees, panel, tray and open menus included. KWin answers a caller other than spectacle only when it runs
with KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1, as the test host's does."""
import os
import sys

import gi

gi.require_version('GdkPixbuf', '2.0')
from gi.repository import GdkPixbuf, Gio, GLib

out = sys.argv[1]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
readable, writable = os.pipe()
fds = Gio.UnixFDList.new()
index = fds.append(writable)
os.close(writable)
try:
    reply, _ = bus.call_with_unix_fd_list_sync(
        'org.kde.KWin', '/org/kde/KWin/ScreenShot2', 'org.kde.KWin.ScreenShot2', 'CaptureScreen',
        GLib.Variant('(sa{sv}h)', ('Virtual-0', {'native-resolution': GLib.Variant('b', True)}, index)),
        None, 0, 10000, fds, None)
except GLib.Error as error:
    sys.exit('ScreenShot2: ' + error.message)
del fds
meta = reply.unpack()[0]
with os.fdopen(readable, 'rb') as pipe:
    data = pipe.read()
width, height, stride = meta['width'], meta['height'], meta['stride']
# QImage's 32-bit formats are 0xAARRGGBB words: B, G, R, A bytes on a little-endian machine.
rows = b''.join(data[y * stride:y * stride + width * 4] for y in range(height))
rgba = bytearray(len(rows))
rgba[0::4], rgba[1::4], rgba[2::4] = rows[2::4], rows[1::4], rows[0::4]
rgba[3::4] = b'\xff' * (width * height)
GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(bytes(rgba)), GdkPixbuf.Colorspace.RGB, True, 8, width, height,
                                width * 4).savev(out, 'png', [], [])
