#!/usr/bin/python3
"""Copies several types at once, as a browser or an office program does: GTK4 offers each file given after its
type (argv[1:]: TYPE FILE TYPE FILE ...) on the clipboard, and serves them until another program copies."""
import sys

import gi

gi.require_version('Gdk', '4.0')
gi.require_version('Gtk', '4.0')
from gi.repository import Gdk, GLib, Gtk

Gtk.init()
clipboard = Gdk.Display.get_default().get_clipboard()
providers = []
for mime, path in zip(sys.argv[1::2], sys.argv[2::2]):
    with open(path, 'rb') as f:
        providers.append(Gdk.ContentProvider.new_for_bytes(mime, GLib.Bytes.new(f.read())))
clipboard.set_content(Gdk.ContentProvider.new_union(providers))
loop = GLib.MainLoop()
clipboard.connect('notify::local', lambda *_: clipboard.is_local() or loop.quit())
loop.run()
