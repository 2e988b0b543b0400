/* For tests only: unsafe mode (org.gnome.Shell.Eval, which tells the test which window has the focus) and the
 * startup overview hidden, so that a new window gets the keyboard. GNOME Shell 45+ style (ES module). */
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class UnsafeModeExtension extends Extension {
    enable() {
        global.context.unsafe_mode = true;
        if (Main.layoutManager._startingUp)
            this._startup = Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
        else
            Main.overview.hide();
    }

    disable() {
        if (this._startup)
            Main.layoutManager.disconnect(this._startup);
        this._startup = 0;
        global.context.unsafe_mode = false;
    }
}
