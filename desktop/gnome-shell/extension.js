// Notula's indicator in GNOME Shell's top bar: thin glue between the Shell's widgets and notula.js, which holds
// the logic (and is tested with gjs outside the Shell).

import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import GioUnix from 'gi://GioUnix';
import Pango from 'gi://Pango';
import Shell from 'gi://Shell';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import * as Focus from './focus.js';
import * as Notula from './notula.js';

const NotulaIndicator = GObject.registerClass(
class NotulaIndicator extends PanelMenu.Button {
    _init(client) {
        super._init(0.5, 'Notula');
        this._client = client;
        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._icon = new St.Icon({style_class: 'system-status-icon'});
        this._time = new St.Label({y_align: Clutter.ActorAlign.CENTER});
        box.add_child(this._icon);
        box.add_child(this._time);
        this.add_child(box);

        // Who else hears the recording (OpenAudio, WatchText): a line to read, not a control.
        this._heardBy = new PopupMenu.PopupMenuItem('', {reactive: false});
        this.menu.addMenuItem(this._heardBy);
        this._toggle = this.menu.addAction('', () => client.toggle().catch(logError));
        this._send = this.menu.addAction('Send', () => client.send().catch(logError));
        this._discard = this.menu.addAction('Discard', () => client.discard().catch(logError));
        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        this._languages = new PopupMenu.PopupSubMenuMenuItem('Language');
        this.menu.addMenuItem(this._languages);
        this._transcript = this.menu.addAction('Copy the last transcript', () =>
            St.Clipboard.get_default().set_text(St.ClipboardType.CLIPBOARD, client.lastTranscript));
        this._settings = new Notula.PanelSettings();
        this._showWords = new PopupMenu.PopupSwitchMenuItem('Show the words while recording', this._settings.showWords);
        this._showWords.connect('toggled', (_item, shown) => {
            this._settings.showWords = shown;
            this._sync();
        });
        this.menu.addMenuItem(this._showWords);

        // Under the timer, above the windows: the guess at what is being said, its start cut when it is long.
        this._words = new St.Label({
            style: 'background-color: rgba(0, 0, 0, 0.8); color: white; border-radius: 6px; padding: 4px 8px; max-width: 32em;',
            visible: false,
        });
        this._words.clutter_text.ellipsize = Pango.EllipsizeMode.START;
        Main.layoutManager.addTopChrome(this._words);
        this._liveWords = new Notula.LiveWords(client.connection, fd => new GioUnix.InputStream({fd, close_fd: true}),
            () => this._syncWords());

        this._listener = client.connectChanged(() => this._sync());
        this._sync();
    }

    _sync() {
        const shown = Notula.presentation(this._client.status);
        this._icon.icon_name = shown.iconName;
        this._icon.style = shown.recording ? 'color: #e5484d;' : null;
        this._time.text = shown.timeText;
        this._time.visible = shown.timeText !== '';
        this.accessible_name = shown.accessibleName;
        this._toggle.label.text = shown.toggleLabel;
        this._toggle.setSensitive(shown.canToggle);
        this._send.setSensitive(shown.canSend);
        this._discard.setSensitive(shown.canDiscard);
        this._heardBy.label.text = shown.heardBy;
        this._heardBy.visible = shown.heardBy !== '';
        this._transcript.visible = this._client.lastTranscript !== '';
        this._syncLanguages();
        this._tick(shown.ticking);
        if (this._settings.showWords && shown.underWay)
            this._liveWords.follow();
        else
            this._liveWords.stop();
        this._syncWords();
    }

    _syncWords() {
        const text = this._settings.showWords ? this._liveWords.text : '';
        this._words.text = text;
        this._words.visible = text !== '';
        if (text === '')
            return;
        const [[x, y], [width, height]] = [this.get_transformed_position(), this.get_transformed_size()];
        const [, labelWidth] = this._words.get_preferred_width(-1);
        const monitor = Main.layoutManager.primaryMonitor;
        const right = Math.min(x + width, monitor.x + monitor.width);
        this._words.set_position(Math.max(monitor.x, right - labelWidth), y + height);
    }

    _syncLanguages() {
        this._languages.menu.removeAll();
        for (const item of this._client.locales) {
            const entry = this._languages.menu.addAction(item.label, () => this._client.pickLocale(item.locale).catch(logError));
            entry.setOrnament(item.checked ? PopupMenu.Ornament.DOT : PopupMenu.Ornament.NONE);
        }
    }

    /** Once a second while recording, counted locally from TimerAnchor: the service sends nothing meanwhile. */
    _tick(ticking) {
        if (ticking && !this._timer) {
            this._timer = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 1, () => {
                const shown = Notula.presentation(this._client.status);
                this._time.text = shown.timeText;
                this.accessible_name = shown.accessibleName;
                return GLib.SOURCE_CONTINUE;
            });
        } else if (!ticking && this._timer) {
            GLib.source_remove(this._timer);
            this._timer = null;
        }
    }

    destroy() {
        this._tick(false);
        this._liveWords.stop();
        Main.layoutManager.removeChrome(this._words);
        this._words.destroy();
        this._client.disconnect(this._listener);
        super.destroy();
    }
});

/** The focused window's process, class and app id (`org.gnome.Terminal`), for notulad to tell a terminal's. */
function describeFocus() {
    const window = global.display.focus_window;
    if (!window)
        return [0, '', ''];
    const appId = Shell.WindowTracker.get_default().get_window_app(window)?.get_id() ?? '';
    return [window.get_pid(), window.get_wm_class(), appId.replace(/\.desktop$/, '')];
}

export default class NotulaExtension extends Extension {
    enable() {
        // Whether notulad runs or not: it asks when it types.
        this._focus = new Focus.FocusedWindowExport(describeFocus);
        this._cancelled = false;
        Notula.NotulaClient.connect().then(client => {
            if (this._cancelled) {
                client.destroy();
                return;
            }
            this._client = client;
            this._indicator = new NotulaIndicator(client);
            Main.panel.addToStatusArea(this.uuid, this._indicator);
        }).catch(logError);
    }

    disable() {
        this._focus.unexport();
        this._focus = null;
        this._cancelled = true;
        this._indicator?.destroy();
        this._indicator = null;
        this._client?.destroy();
        this._client = null;
    }
}
