#!/usr/bin/python3
"""Answers xdg-desktop-portal-gnome's "Remote desktop" dialog as a user would, through AT-SPI: `allow` switches on
"Allow remote interaction" and clicks Share; `cancel` clicks Cancel. Waits for the dialog (up to argv[2] seconds,
polling the accessibility tree, which announces no such window reliably); exit 0 once clicked, 1 when no dialog came."""
import sys
import time

import pyatspi

answer, within = sys.argv[1], float(sys.argv[2])


def find(node, wanted, depth=0):
    if node is None or depth > 15:
        return None
    try:
        if wanted(node):
            return node
        for child in node:
            found = find(child, wanted, depth + 1)
            if found is not None:
                return found
    except Exception:  # a node that went away while walked
        pass
    return None


def dialog():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == 'xdg-desktop-portal-gnome':
            for window in app:
                if window is not None and window.name == 'Remote desktop':
                    return window
    return None


def button(window, label):
    return find(window, lambda o: o.getRole() == pyatspi.ROLE_PUSH_BUTTON and o.name.replace('_', '').endswith(label))


def act(node, name):
    actions = node.queryAction()
    for i in range(actions.nActions):
        if actions.getName(i) == name:
            return actions.doAction(i)
    raise RuntimeError('no action %s on %s' % (name, node.name))


end = time.monotonic() + within
while True:
    window = dialog()
    share = window and button(window, 'Share')
    if share:
        break
    if time.monotonic() > end:
        print('answer-remote-desktop: no Remote desktop dialog within %s s' % within, flush=True)
        sys.exit(1)
    time.sleep(0.1)

if answer == 'allow':
    switch = find(window, lambda o: o.getRole() == pyatspi.ROLE_CHECK_BOX)
    if switch and not switch.getState().contains(pyatspi.STATE_CHECKED):
        act(switch, 'toggle')
    # Share turns sensitive once the switch is on.
    while not share.getState().contains(pyatspi.STATE_SENSITIVE) and time.monotonic() < end:
        time.sleep(0.05)
    act(share, 'click')
else:
    act(button(window, 'Cancel'), 'click')
print('answer-remote-desktop: %s' % answer, flush=True)
