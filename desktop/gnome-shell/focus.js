// What notulad asks the Shell before it types a spoken new line: which program's window has the keyboard focus.
// Exported on the Shell's own connection, so that a call to org.gnome.Shell reaches it: the bus delivers that call
// to the name's current owner only, and its reply comes from there, so no other program can answer in its place.

import Gio from 'gi://Gio';

const INTERFACE = `<node>
  <interface name="org.notula.Notula1.FocusedWindow">
    <method name="Describe">
      <arg type="u" name="pid" direction="out"/>
      <arg type="s" name="wm_class" direction="out"/>
      <arg type="s" name="app_id" direction="out"/>
    </method>
  </interface>
</node>`;

export const FOCUS_PATH = '/org/notula/Notula1/FocusedWindow';

/**
 * The focused window's description, as `describe()` reads it from the Shell (`[pid, wmClass, appId]`, with 0 and ''
 * for what it does not know), answered on `connection` at FOCUS_PATH until `unexport()`.
 */
export class FocusedWindowExport {
    constructor(describe, connection = Gio.DBus.session) {
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, {
            Describe: () => {
                const [pid, wmClass, appId] = describe();
                return [Number.isInteger(pid) && pid > 0 ? pid : 0, wmClass ?? '', appId ?? ''];
            },
        });
        this._object.export(connection, FOCUS_PATH);
    }

    unexport() {
        this._object.unexport();
    }
}
