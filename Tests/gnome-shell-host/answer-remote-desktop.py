#!/usr/bin/python3
"""Answers xdg-desktop-portal-gnome's remote-desktop dialog (GNOME 43's "Remote desktop", 48's "Remote Desktop") as a
user would, through AT-SPI: `allow` switches on every switch that is off ("Allow remote interaction", without which
Share stays insensitive; 48's "Remember This Selection" is on already) and clicks Share; `cancel` clicks Cancel. Waits
for the dialog (up to argv[2] seconds, polling the accessibility tree, which announces no such window reliably); exit
0 once clicked, 1 when no dialog came."""
import sys
import time

import pyatspi

answer, within = sys.argv[1], float(sys.argv[2])
# pyatspi 2.46 names no ROLE_SWITCH; a switch shows as a check box or a toggle button.
TOGGLES = {pyatspi.ROLE_CHECK_BOX, pyatspi.ROLE_TOGGLE_BUTTON}


def walk(node, depth=0):
    if node is None or depth > 25:
        return
    yield node
    try:
        for child in node:
            yield from walk(child, depth + 1)
    except Exception:  # a node that went away while walked
        return


def button(window, label):
    for node in walk(window):
        try:
            if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and (node.name or '').replace('_', '').endswith(label):
                return node
        except Exception:
            pass
    return None


def dialog():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == 'xdg-desktop-portal-gnome':
            for window in app:
                if window is not None and button(window, 'Share'):
                    return window
    return None


def act(node, names):
    actions = node.queryAction()
    for i in range(actions.nActions):
        if actions.getName(i) in names:
            return actions.doAction(i)
    raise RuntimeError('no action %s on %s' % (names, node.name))


end = time.monotonic() + within
while True:
    window = dialog()
    if window:
        break
    if time.monotonic() > end:
        seen = ['%s: %s' % (app.name, [w.name for w in app]) for app in pyatspi.Registry.getDesktop(0) if app is not None]
        print('answer-remote-desktop: no Remote Desktop dialog within %s s; on the desktop: %s' % (within, seen), flush=True)
        sys.exit(1)
    time.sleep(0.1)

if answer == 'allow':
    for node in walk(window):
        try:
            # GTK 4.8 (43): the switch is a check box with `toggle`; libadwaita 1.7 (48): each switch row is a check box
            # without actions, the switch with `toggle` inside it.
            if node.getRole() in TOGGLES and not node.getState().contains(pyatspi.STATE_CHECKED) \
                    and node.queryAction().nActions > 0:
                act(node, ('toggle', 'click', 'activate', 'press'))
                print('answer-remote-desktop: switched on "%s"' % node.name, flush=True)
        except Exception as error:
            print('answer-remote-desktop: could not switch "%s": %s' % (node.name, error), flush=True)
    share = button(window, 'Share')
    # Share turns sensitive once remote interaction is allowed.
    while not share.getState().contains(pyatspi.STATE_SENSITIVE) and time.monotonic() < end:
        time.sleep(0.05)
    act(share, ('click', 'activate', 'press'))
else:
    act(button(window, 'Cancel'), ('click', 'activate', 'press'))
print('answer-remote-desktop: %s' % answer, flush=True)
