// The GNOME Shell extension's logic against notulad, on the bus in DBUS_SESSION_BUS_ADDRESS, run by IntegrationTests'
// GnomeShellLogicTests: `gjs -m Tests/gnome-shell/logic-test.js` with notulad running, or with `activation` on a bus
// that starts it on demand. Prints one line per check passed, and exits 1 at the first that fails.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

import * as Notula from '../../desktop/gnome-shell/notula.js';

function check(what, actual, expected) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    if (a !== e)
        throw new Error(`${what}: got ${a}, expected ${e}`);
    print(`ok ${what}`);
}

/** Resolves once `client.status` satisfies `condition`, waiting on the client's change signal. */
function until(client, condition) {
    return new Promise(resolve => {
        if (condition(client.status)) {
            resolve();
            return;
        }
        const listener = client.connectChanged(() => {
            if (condition(client.status)) {
                client.disconnect(listener);
                resolve();
            }
        });
    });
}

function pure() {
    check('a clock', Notula.formatClock(134), '2:14');
    check('a clock past the hour', Notula.formatClock(3723), '1:02:03');
    check('time in full units', Notula.spellDuration(134), '2 minutes 14 seconds');
    check('one of each unit', Notula.spellDuration(3661), '1 hour 1 minute 1 second');
    const now = 5_000_000_000;
    const recording = Notula.presentation({state: 'recording', elapsed: 0, timerAnchor: now - 134_000_000}, now);
    check('the time counted from TimerAnchor', recording.timeText, '2:14');
    check('the time for a screen reader', recording.accessibleName, 'Notula: Recording, 2 minutes 14 seconds');
    check('a second later', Notula.presentation({state: 'recording', elapsed: 0, timerAnchor: now - 134_000_000}, now + 1e6).timeText, '2:15');
    const paused = Notula.presentation({state: 'paused', elapsed: 75.4, timerAnchor: 0}, now);
    check('paused: the frozen time and Resume', [paused.iconName, paused.timeText, paused.toggleLabel, paused.ticking],
        ['media-playback-pause-symbolic', '1:15', 'Resume', false]);
    check('idle: out of the way', [Notula.presentation({state: 'idle', elapsed: 0, timerAnchor: 0}).timeText], ['']);
    check('locales', Notula.localeItems(
        {supported: ['nl-NL', 'de-DE', 'en-US'], installed: ['nl-NL'], downloading: 'de-DE', progress: 0.42}, 'nl-NL'),
    [
        {locale: 'de-DE', label: 'de-DE — downloading 42%', checked: false, installed: false},
        {locale: 'en-US', label: 'en-US (downloads its model)', checked: false, installed: false},
        {locale: 'nl-NL', label: 'nl-NL', checked: true, installed: true},
    ]);
    check('the words: a guess, the utterance, nothing at the end', [
        Notula.shownWords('', {kind: 'partial', text: 'hello'}),
        Notula.shownWords('hello', {kind: 'final', text: 'hello there', start: 0, end: 1, words: []}),
        Notula.shownWords('hello there', {kind: 'end', memo: '/org/notula/Notula1/Memos/1'}),
        Notula.shownWords('kept', {kind: 'unknown'}),
    ], ['hello', 'hello there', '', 'kept']);
    const heard = [['text', 'gnome-shell', ':1.5', 1], ['audio', 'org.example.App', ':1.9', 2], ['text', 'org.example.App', ':1.9', 3]];
    check('other listeners: each program once, the Shell\'s own left out', Notula.otherListeners(heard, ':1.5'), ['org.example.App']);
    check('heard by, while recording', Notula.presentation({state: 'recording', elapsed: 0, timerAnchor: 0, listeners: ['a', 'b']}).heardBy,
        'Also heard by: a, b');
    check('heard by nobody, or not recording: nothing said', [
        Notula.presentation({state: 'recording', elapsed: 0, timerAnchor: 0, listeners: []}).heardBy,
        Notula.presentation({state: 'processing', elapsed: 0, timerAnchor: 0, listeners: ['a']}).heardBy,
    ], ['', '']);
    const settingsFile = GLib.build_filenamev([GLib.get_tmp_dir(), `notula-panel-${GLib.uuid_string_random()}`, 'gnome-shell.json']);
    check('the words show at first', new Notula.PanelSettings(settingsFile).showWords, true);
    new Notula.PanelSettings(settingsFile).showWords = false;
    check('hidden, and kept so', new Notula.PanelSettings(settingsFile).showWords, false);
    check('the setting is the user\'s alone', Gio.File.new_for_path(settingsFile)
        .query_info('unix::mode', Gio.FileQueryInfoFlags.NONE, null).get_attribute_uint32('unix::mode') & 0o777, 0o600);
    GLib.unlink(settingsFile);
    GLib.rmdir(GLib.path_get_dirname(settingsFile));
}

async function againstTheService() {
    const client = await Notula.NotulaClient.connect();
    check('idle at first', client.status.state, 'idle');
    check('the current locale is listed, checked', client.locales.filter(item => item.checked).map(item => item.locale),
        [client.status.locale]);

    await client.toggle();
    await until(client, status => status.state === 'recording');
    // The timer starts with the first samples in the file, a moment after the state changes.
    await until(client, status => status.timerAnchor > 0);
    const status = client.status;
    check('a TimerAnchor while recording', status.state, 'recording');
    const shown = Notula.presentation(status, status.timerAnchor + 5_000_000);
    check('recording: the record symbol, ticking from the anchor', [shown.iconName, shown.recording, shown.timeText, shown.ticking],
        ['media-record-symbolic', true, '0:05', true]);
    check('recording: Send and Discard offered', [shown.canSend, shown.canDiscard, shown.toggleLabel], [true, true, 'Pause']);

    await client.toggle();
    await until(client, status => status.state === 'paused');
    check('paused: no anchor, the time frozen', client.status.timerAnchor, 0);

    // Another program reads the live text: the menu names it; the Shell's own reading (the words it shows) is left out.
    const other = Gio.DBusConnection.new_for_address_sync(
        Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, null),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, null, null);
    const watchText = connection => connection.call_with_unix_fd_list_sync('org.notula.Notula1', '/org/notula/Notula1/Recorder',
        'org.notula.Notula1.Recorder', 'WatchText', null, null, Gio.DBusCallFlags.NONE, -1, null, null)[1].steal_fds()[0];
    const own = watchText(client.connection);
    const others = watchText(other);
    await until(client, status => status.listeners.length > 0);
    check('paused, heard by another program', Notula.presentation(client.status).heardBy, 'Also heard by: gjs-console');
    new Gio.UnixInputStream({fd: others, close_fd: true}).close(null);
    await until(client, status => status.listeners.length === 0);
    check('it closed its pipe: nobody named', Notula.presentation(client.status).heardBy, '');
    new Gio.UnixInputStream({fd: own, close_fd: true}).close(null);
    other.close_sync(null);

    await client.send();
    await until(client, status => status.state === 'idle');
    check('sent: idle again, Send no longer offered', Notula.presentation(client.status).canSend, false);
    client.destroy();
}

async function startedByTheFirstClick() {
    const client = await Notula.NotulaClient.connect();
    check('showing the indicator starts nothing', client.status.state, Notula.NOT_RUNNING);
    check('not running: Record offered', Notula.presentation(client.status).toggleLabel, 'Record');
    await client.toggle();
    await until(client, status => status.state === 'recording' && status.timerAnchor > 0);
    check('the first click started notulad, which records', client.status.state, 'recording');
    await client.discard();
    await until(client, status => status.state === 'idle');
    client.destroy();
}

let status = 0;
const loop = new GLib.MainLoop(null, false);
(async () => {
    if (System.programArgs[0] === 'activation') {
        await startedByTheFirstClick();
        return;
    }
    pure();
    await againstTheService();
})().catch(error => {
    printerr(`${error.message}\n${error.stack}`);
    status = 1;
}).finally(() => loop.quit());
loop.run();
System.exit(status);
