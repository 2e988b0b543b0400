#!/bin/sh
# build-root.sh ROOT: a Debian 13 (trixie) root holding GNOME Shell 48 and its portals, for Gnome48Host.
# Built once (about 100 s, 1.0 GB: no manuals, no translations) and reused: ROOT/.complete marks a finished build,
# so an interrupted one is started over. No Recommends (mmdebstrap's default): the list names what the headless
# Shell needs.
set -eu
ROOT=$1
MIRROR=${MIRROR:-http://deb.debian.org/debian}
PACKAGES=gnome-shell,xdg-desktop-portal,xdg-desktop-portal-gnome,python3-dbusmock,python3-gi,gir1.2-gtk-4.0,python3-pyatspi,gir1.2-atspi-2.0,at-spi2-core,dbus,dbus-daemon,libglib2.0-bin,dconf-gsettings-backend,dconf-service,gsettings-desktop-schemas,fonts-cantarell,fonts-dejavu-core,adwaita-icon-theme,libgl1-mesa-dri,procps
rm -rf "$ROOT"
mmdebstrap --mode=root --variant=apt \
	--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--include="$PACKAGES" trixie "$ROOT" "$MIRROR"
touch "$ROOT/.complete"
