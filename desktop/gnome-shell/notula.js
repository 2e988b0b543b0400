// The logic of Notula's panel indicator, with no GNOME Shell imports, so that gjs runs it (and its tests) outside
// the Shell: the bus proxies, what each state shows, the timer counted from TimerAnchor, the locale list.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

Gio._promisify(Gio.DBusProxy, 'new', 'new_finish');
Gio._promisify(Gio.DBusProxy.prototype, 'call', 'call_finish');
Gio._promisify(Gio.DBusConnection.prototype, 'call', 'call_finish');
Gio._promisify(Gio.DBusConnection.prototype, 'call_with_unix_fd_list', 'call_with_unix_fd_list_finish');
Gio._promisify(Gio.DataInputStream.prototype, 'read_line_async', 'read_line_finish_utf8');

const BUS_NAME = 'org.notula.Notula1';
const RECORDER = ['/org/notula/Notula1/Recorder', 'org.notula.Notula1.Recorder'];
const MODELS = ['/org/notula/Notula1/Models', 'org.notula.Notula1.Models'];
const MEMO_INTERFACE = 'org.notula.Notula1.Memo';

/** The state shown while notulad is not on the bus: its calls would start it, its properties say nothing. */
export const NOT_RUNNING = 'not-running';

/**
 * The time recorded, in seconds: counted up from `timerAnchor` (CLOCK_MONOTONIC µs, what GLib.get_monotonic_time()
 * reads) while recording, so that a ticking timer needs no traffic from the service; frozen otherwise.
 */
export function elapsedSeconds(status, nowMicroseconds = GLib.get_monotonic_time()) {
    if (status.state === 'recording' && status.timerAnchor > 0)
        return Math.max(0, (nowMicroseconds - status.timerAnchor) / 1e6);
    return status.elapsed;
}

/** A duration as a clock: "2:14", "1:02:03". */
export function formatClock(seconds) {
    const total = Math.floor(Math.max(0, seconds));
    const [hours, minutes, rest] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
    const twoDigits = n => String(n).padStart(2, '0');
    return hours > 0 ? `${hours}:${twoDigits(minutes)}:${twoDigits(rest)}` : `${minutes}:${twoDigits(rest)}`;
}

/** A duration in full units, for screen readers: "2 minutes 14 seconds" (a reader says "2:14" as a time of day). */
export function spellDuration(seconds) {
    const total = Math.floor(Math.max(0, seconds));
    const parts = [[Math.floor(total / 3600), 'hour'], [Math.floor(total / 60) % 60, 'minute'], [total % 60, 'second']]
        .filter(([count]) => count > 0)
        .map(([count, unit]) => `${count} ${unit}${count === 1 ? '' : 's'}`);
    return parts.length > 0 ? parts.join(' ') : '0 seconds';
}

const LOOKS = {
    [NOT_RUNNING]: {icon: 'audio-input-microphone-symbolic', word: 'Not running', toggle: 'Record'},
    idle: {icon: 'audio-input-microphone-symbolic', word: 'Ready to record', toggle: 'Record'},
    recording: {icon: 'media-record-symbolic', word: 'Recording', toggle: 'Pause'},
    paused: {icon: 'media-playback-pause-symbolic', word: 'Paused', toggle: 'Resume'},
    processing: {icon: 'content-loading-symbolic', word: 'Transcribing', toggle: 'Record'},
};

/**
 * What the indicator shows for `status` at `nowMicroseconds`: out of the way (an icon alone) without a recording,
 * the red record symbol and the time ticking while recording, the paused symbol and the frozen time while paused.
 */
export function presentation(status, nowMicroseconds = GLib.get_monotonic_time()) {
    const look = LOOKS[status.state] ?? LOOKS[NOT_RUNNING];
    const underWay = status.state === 'recording' || status.state === 'paused' || status.state === 'processing';
    const seconds = elapsedSeconds(status, nowMicroseconds);
    return {
        iconName: look.icon,
        recording: status.state === 'recording',
        timeText: underWay ? formatClock(seconds) : '',
        accessibleName: underWay ? `Notula: ${look.word}, ${spellDuration(seconds)}` : `Notula: ${look.word}`,
        ticking: status.state === 'recording',
        underWay,
        toggleLabel: look.toggle,
        canToggle: status.state !== 'processing',
        canSend: status.state === 'recording' || status.state === 'paused',
        canDiscard: underWay,
        heardBy: (status.state === 'recording' || status.state === 'paused') && status.listeners?.length
            ? `Also heard by: ${status.listeners.join(', ')}` : '',
    };
}

/**
 * The programs named in the recorder's Listeners (stream, program, connection, since), each once, first come first,
 * but for this Shell's own connection: the words it shows under the timer are no other program's hearing.
 */
export function otherListeners(listeners, ownConnection) {
    return [...new Set(listeners.filter(([, , connection]) => connection !== ownConnection).map(([, program]) => program))];
}

/**
 * The language picker's items: every supported locale (and the current one), sorted, the current checked, one whose
 * model is missing saying that picking it downloads it, the one downloading its progress.
 */
export function localeItems(models, current) {
    const locales = [...new Set([...models.supported, current].filter(Boolean))].sort();
    return locales.map(locale => {
        const installed = models.installed.includes(locale);
        let label = locale;
        if (locale === models.downloading)
            label = `${locale} — downloading ${Math.round(models.progress * 100)}%`;
        else if (!installed)
            label = `${locale} (downloads its model)`;
        return {locale, label, checked: locale === current, installed};
    });
}

/** The recorder and models of notulad on a bus, followed: `onChanged` runs at every change of state, locale or owner. */
export class NotulaClient {
    static async connect(connection = Gio.DBus.session) {
        // Showing the indicator must not start notulad; a click (a method call) does, through D-Bus activation.
        const proxy = ([path, iface]) => Gio.DBusProxy.new(
            connection, Gio.DBusProxyFlags.DO_NOT_AUTO_START_AT_CONSTRUCTION, null, BUS_NAME, path, iface, null);
        const [recorder, models] = await Promise.all([proxy(RECORDER), proxy(MODELS)]);
        return new NotulaClient(connection, recorder, models);
    }

    constructor(connection, recorder, models) {
        this.connection = connection;
        this._recorder = recorder;
        this._models = models;
        this._listeners = new Set();
        this.lastTranscript = '';
        const changed = () => this._listeners.forEach(listener => listener());
        this._handlers = [
            [recorder, recorder.connect('g-properties-changed', changed)],
            [recorder, recorder.connect('notify::g-name-owner', changed)],
            [models, models.connect('g-properties-changed', changed)],
            [recorder, recorder.connect('g-signal', (_proxy, _sender, name, parameters) => {
                if (name === 'Processed')
                    this._fetchTranscript(parameters.deepUnpack()[0]).then(changed);
            })],
        ];
    }

    /** Calls `listener` at every change; returns what `disconnect` takes. */
    connectChanged(listener) {
        this._listeners.add(listener);
        return listener;
    }

    disconnect(listener) {
        this._listeners.delete(listener);
    }

    destroy() {
        this._handlers.forEach(([object, id]) => object.disconnect(id));
        this._listeners.clear();
    }

    get status() {
        if (!this._recorder.g_name_owner)
            return {state: NOT_RUNNING, elapsed: 0, timerAnchor: 0, locale: '', listeners: []};
        const read = name => this._recorder.get_cached_property(name)?.unpack();
        const listeners = this._recorder.get_cached_property('Listeners')?.deepUnpack() ?? [];
        return {
            state: read('State'), elapsed: read('Elapsed') ?? 0, timerAnchor: read('TimerAnchor') ?? 0, locale: read('Locale'),
            listeners: otherListeners(listeners, this.connection.get_unique_name()),
        };
    }

    get locales() {
        const read = (name, fallback) => this._models.get_cached_property(name)?.deepUnpack() ?? fallback;
        return localeItems({
            supported: read('SupportedLocales', []), installed: read('InstalledLocales', []),
            downloading: read('DownloadingLocale', ''), progress: read('DownloadProgress', 0),
        }, this.status.locale);
    }

    /** Start, pause or resume; the first call starts notulad when it is not running. */
    toggle() {
        return this._callRecorder('Toggle');
    }

    send() {
        return this._callRecorder('Process');
    }

    discard() {
        return this._callRecorder('Discard');
    }

    /** Transcribe in `locale` from now on; its model downloads when missing. */
    pickLocale(locale) {
        return this.connection.call(BUS_NAME, RECORDER[0], 'org.freedesktop.DBus.Properties', 'Set',
            new GLib.Variant('(ssv)', [RECORDER[1], 'Locale', new GLib.Variant('s', locale)]),
            null, Gio.DBusCallFlags.NONE, -1, null);
    }

    _callRecorder(method) {
        return this._recorder.call(method, null, Gio.DBusCallFlags.NONE, -1, null);
    }

    async _fetchTranscript(memoPath) {
        try {
            const reply = await this.connection.call(BUS_NAME, memoPath, MEMO_INTERFACE, 'GetTranscript', null,
                null, Gio.DBusCallFlags.NONE, -1, null);
            this.lastTranscript = reply.deepUnpack()[0];
        } catch (error) {
            // A memo whose text is not there (no speech, no model): there is nothing to copy.
            this.lastTranscript = '';
        }
    }
}

/** What the words under the timer show after a line of WatchText: the guess while spoken, the utterance once ended. */
export function shownWords(current, line) {
    switch (line.kind) {
    case 'partial':
    case 'final':
        return line.text ?? '';
    case 'end':
        return '';
    default:
        return current;
    }
}

/**
 * The words being spoken, read from notulad's WatchText pipe: handed to this client alone, never broadcast.
 * `inputStreamFor(fd)` makes a Gio.InputStream of a file descriptor; the Shell's entry point knows which class does.
 */
export class LiveWords {
    constructor(connection, inputStreamFor, onChanged) {
        this._connection = connection;
        this._inputStreamFor = inputStreamFor;
        this._onChanged = onChanged;
        this._cancellable = null;
        this.text = '';
    }

    /** Reads the pipe until notulad closes it or `stop()`; a call while it reads does nothing. */
    async follow() {
        if (this._cancellable)
            return;
        const cancellable = this._cancellable = new Gio.Cancellable();
        let input = null;
        try {
            // Never starts notulad: the words are followed only while it records.
            const [reply, fds] = await this._connection.call_with_unix_fd_list(BUS_NAME, RECORDER[0], RECORDER[1], 'WatchText',
                null, new GLib.VariantType('(h)'), Gio.DBusCallFlags.NO_AUTO_START, -1, null, cancellable);
            input = new Gio.DataInputStream({base_stream: this._inputStreamFor(fds.get(reply.get_child_value(0).get_handle()))});
            for (;;) {
                const [line] = await input.read_line_async(GLib.PRIORITY_DEFAULT, cancellable);
                if (line === null)
                    break;
                // The Shell promisifies read_line_async itself, with the finish that gives bytes.
                this._show(shownWords(this.text, JSON.parse(typeof line === 'string' ? line : new TextDecoder().decode(line))));
            }
        } catch (error) {
            if (!(error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED)))
                logError(error, 'Notula: the words being spoken are no longer shown');
        } finally {
            input?.close(null);
            if (this._cancellable === cancellable)
                this._cancellable = null;
            this._show('');
        }
    }

    stop() {
        this._cancellable?.cancel();
    }

    _show(text) {
        if (text === this.text)
            return;
        this.text = text;
        this._onChanged();
    }
}

/** The indicator's own settings, in Notula's config folder: whether the words show while recording (yes at first). */
export class PanelSettings {
    constructor(path = GLib.build_filenamev([GLib.get_user_config_dir(), 'notula', 'gnome-shell.json'])) {
        this._path = path;
        let kept = {};
        try {
            const [, bytes] = GLib.file_get_contents(path);
            kept = JSON.parse(new TextDecoder().decode(bytes));
        } catch (error) {
            // None yet, or not JSON: the defaults.
        }
        this._showWords = kept.showWords !== false;
    }

    get showWords() {
        return this._showWords;
    }

    set showWords(shown) {
        this._showWords = shown;
        try {
            GLib.mkdir_with_parents(GLib.path_get_dirname(this._path), 0o700);
            GLib.file_set_contents_full(this._path, JSON.stringify({showWords: shown}),
                GLib.FileSetContentsFlags.CONSISTENT, 0o600);
        } catch (error) {
            logError(error, `Notula: cannot keep the setting in ${this._path}`);
        }
    }
}
