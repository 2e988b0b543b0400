/* For tests only: unsafe mode (org.gnome.Shell.Eval, which tells the test which window has the focus) and the
 * startup overview hidden, so that a new window gets the keyboard. GNOME Shell 43 style (imports.*). */
const Main = imports.ui.main;

class Extension {
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

function init() {
    return new Extension();
}
