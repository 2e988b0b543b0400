# GNOME Shell 43 and 44 load an extension as scripts through imports.*, not as ES modules: `make gnome-extension`
# turns the modules of this folder into such scripts with these rules, line by line (it fails where an import or
# export is left that no rule knew).
# GLib before 2.80 (Shell 43, 44) has the Unix streams in Gio.
s|^import GioUnix from 'gi://GioUnix';$|const GioUnix = {InputStream: imports.gi.Gio.UnixInputStream};|
s|^import ([A-Za-z]+) from 'gi://([A-Za-z]+)';$|const \1 = imports.gi.\2;|
s|^import \* as ([A-Za-z]+) from 'resource:///org/gnome/shell/ui/([A-Za-z]+)\.js';$|const \1 = imports.ui.\2;|
s|^import \* as ([A-Za-z]+) from '\./([A-Za-z]+)\.js';$|const \1 = imports.misc.extensionUtils.getCurrentExtension().imports.\2;|
# Shell 45's base class, of which the extension takes the uuid: 43 passes init() an object with the same uuid.
s|^import \{Extension\} from 'resource:///org/gnome/shell/extensions/extension\.js';$|class Extension {\n    constructor(extension) {\n        this.uuid = extension.uuid;\n    }\n}|
# 43 calls the script's init() for the object it then enables and disables.
s|^export default class ([A-Za-z]+) extends Extension \{$|function init(extension) {\n    return new \1(extension);\n}\n\nclass \1 extends Extension {|
# A script exports its top-level var and function declarations.
s|^export function |function |
s|^export const |var |
s|^export class ([A-Za-z]+) |var \1 = class \1 |
