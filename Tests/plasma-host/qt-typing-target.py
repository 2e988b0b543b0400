#!/usr/bin/python3
"""A Qt 5 window with one focused line edit, for typing tests: every change of its text is written (UTF-8, whole,
by an atomic rename) to the file argv[1]; the window's title is argv[2]. While the window is active, the file
argv[1] + '.focused' exists, so a test can tell the keyboard reaches it."""
import os
import sys

from PyQt5.QtCore import QEvent
from PyQt5.QtWidgets import QApplication, QLineEdit

out, title = sys.argv[1], sys.argv[2]


def write(path, text):
    staging = path + '.new'
    with open(staging, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(staging, path)


class Entry(QLineEdit):
    def event(self, event):
        if event.type() == QEvent.WindowActivate:
            open(out + '.focused', 'w').close()
        elif event.type() == QEvent.WindowDeactivate and os.path.exists(out + '.focused'):
            os.remove(out + '.focused')
        return super().event(event)


app = QApplication([sys.argv[0]])
entry = Entry()
entry.setWindowTitle(title)
entry.textChanged.connect(lambda text: write(out, text))
write(out, '')
entry.show()
entry.setFocus()
sys.exit(app.exec_())
