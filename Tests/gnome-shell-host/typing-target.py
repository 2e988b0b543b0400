#!/usr/bin/python3
"""A GTK4 window with one focused entry, for typing tests: every change of the entry's text is written (UTF-8,
whole, by an atomic rename) to the file argv[1], and how many changes there were so far to argv[1] + '.changes' (a
paste is one change, typing one per character); the window's title is argv[2]. While the window is active, the file
argv[1] + '.focused' exists, so a test can tell the keyboard reaches it."""
import os
import sys

import gi

gi.require_version('Gtk', '4.0')
from gi.repository import Gio, Gtk

out, title = sys.argv[1], sys.argv[2]
changes = 0


def replace(path, text):
    staging = path + '.new'
    with open(staging, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(staging, path)


def changed(entry):
    global changes
    changes += 1
    replace(out + '.changes', str(changes))
    replace(out, entry.get_text())


def mark_focus(window, _):
    if window.is_active():
        open(out + '.focused', 'w').close()
    elif os.path.exists(out + '.focused'):
        os.remove(out + '.focused')


def on_activate(app):
    window = Gtk.ApplicationWindow(application=app, title=title)
    window.connect('notify::is-active', mark_focus)
    entry = Gtk.Entry()
    entry.connect('changed', changed)
    window.set_child(entry)
    window.present()
    entry.grab_focus()
    replace(out + '.changes', '0')
    replace(out, '')


app = Gtk.Application(application_id='org.notula.TypingTarget', flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect('activate', on_activate)
app.run([sys.argv[0]])
