#!/usr/bin/python3
"""A pointer through the RemoteDesktop portal, held for the test's whole run: one session (KDE's portal grants a
pointer without a dialog, and shows a tray item of its own while the session lasts). Prints 'ready' once the
session has started; then, for each line 'X Y BUTTON' read (BUTTON: left, right or none), moves the pointer to the
screen point (X, Y) and clicks, and prints 'done'. Without a screen-cast stream only relative motion is allowed:
a long move to the top-left corner first makes the next one absolute."""
import random
import sys
import time

from gi.repository import Gio, GLib

BUTTONS = {'left': 272, 'right': 273}  # evdev BTN_LEFT, BTN_RIGHT
PORTAL, PATH, REMOTE = 'org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop', 'org.freedesktop.portal.RemoteDesktop'
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
sender = bus.get_unique_name()[1:].replace('.', '_')
loop = GLib.MainLoop()


def request(method, arguments):
    """Calls a portal method that answers through a Request's Response signal; returns its results."""
    token = 'notula%d' % random.randint(0, 1 << 30)
    answer = {}

    def responded(_c, _s, _o, _i, _n, parameters):
        answer['response'] = parameters.unpack()
        loop.quit()

    subscription = bus.signal_subscribe(
        PORTAL, 'org.freedesktop.portal.Request', 'Response',
        '/org/freedesktop/portal/desktop/request/%s/%s' % (sender, token), None, 0, responded)
    bus.call_sync(PORTAL, PATH, REMOTE, method, arguments(token), None, 0, -1, None)
    timeout = GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    GLib.source_remove(timeout)
    bus.signal_unsubscribe(subscription)
    if answer.get('response', (1,))[0] != 0:
        sys.exit('%s: %s' % (method, answer))
    return answer['response'][1]


def token_option(token):
    return {'handle_token': GLib.Variant('s', token)}


session = request('CreateSession', lambda t: GLib.Variant('(a{sv})', (
    dict(token_option(t), session_handle_token=GLib.Variant('s', 's' + t)),)))['session_handle']
request('SelectDevices', lambda t: GLib.Variant('(oa{sv})', (session, dict(token_option(t), types=GLib.Variant('u', 2)))))
request('Start', lambda t: GLib.Variant('(osa{sv})', (session, '', token_option(t))))


def notify(method, signature, *arguments):
    bus.call_sync(PORTAL, PATH, REMOTE, method, GLib.Variant(signature, (session, {}) + arguments), None, 0, -1, None)


print('ready', flush=True)
for line in sys.stdin:
    x, y, button = line.split()
    notify('NotifyPointerMotion', '(oa{sv}dd)', -10000.0, -10000.0)
    notify('NotifyPointerMotion', '(oa{sv}dd)', float(x), float(y))
    if button in BUTTONS:
        # A press and a release a moment apart, as a hand clicks: a menu opened on the press takes the release.
        notify('NotifyPointerButton', '(oa{sv}iu)', BUTTONS[button], 1)
        time.sleep(0.05)
        notify('NotifyPointerButton', '(oa{sv}iu)', BUTTONS[button], 0)
    print('done', flush=True)
