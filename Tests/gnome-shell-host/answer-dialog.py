#!/usr/bin/python3
"""Answers a portal's dialog as a user would, through AT-SPI: by default xdg-desktop-portal-gnome's remote-desktop
dialog (GNOME 43's "Remote desktop", 48's "Remote Desktop"); argv[3] and argv[4] name another application and its
confirming button (GNOME 48's "Add Keyboard Shortcuts": gnome-control-center-global-shortcuts-provider, Add).
`allow` switches on every switch that is off ("Allow remote interaction", without which Share stays insensitive;
48's "Remember This Selection" is on already) and clicks the confirming button; `cancel` clicks Cancel. Waits for the
dialog (up to argv[2] seconds, polling the accessibility tree, which announces no such window reliably); exit 0 once
clicked, 1 when no dialog came."""
import sys
import time

import pyatspi

answer, within = sys.argv[1], float(sys.argv[2])
application, confirm = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ('xdg-desktop-portal-gnome', 'Share')
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
        if app is not None and app.name == application:
            for window in app:
                if window is not None and button(window, confirm):
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
        print('answer-dialog: no %s dialog within %s s; on the desktop: %s' % (application, within, seen), flush=True)
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
                print('answer-dialog: switched on "%s"' % node.name, flush=True)
        except Exception as error:
            print('answer-dialog: could not switch "%s": %s' % (node.name, error), flush=True)
    share = button(window, confirm)
    # Share turns sensitive once remote interaction is allowed.
    while not share.getState().contains(pyatspi.STATE_SENSITIVE) and time.monotonic() < end:
        time.sleep(0.05)
    act(share, ('click', 'activate', 'press'))
else:
    act(button(window, 'Cancel'), ('click', 'activate', 'press'))
print('answer-dialog: %s' % answer, flush=True)
