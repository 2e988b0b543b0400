import Testing

/// The pass of `make test` a suite runs in, read from the test binary by `scripts/test-pass`: a suite with none of
/// these runs in the main pass, beside everything else. A module of its own, not `NotulaTestSupport`: notula-bench
/// links that, and a release binary cannot carry the toolchain's libTesting.so.
extension Tag {
    /// Times a capture against the clock, each in a sink of its own: away from the main pass's load, beside the
    /// other capture suites.
    @Tag public static var capture: Self
    /// Times recorded audio against the clock through notulad (the recording flows over the bus, playback, the
    /// accurate pass's text at Send): the machine to itself, one suite at a time.
    @Tag public static var timing: Self
    /// Kills and restarts PulseAudio servers, fills disks, fuzzes the bus, lists thousands of memos: alone, as its
    /// load would break the timing bounds of others.
    @Tag public static var reliability: Self
    /// Decodes speech with the Korean model, which fills both cores: beside other speech suites only.
    @Tag public static var speech: Self
    /// Loads a model in a notulad of its own (beside the speech pass a load waited over a minute for a core, and live
    /// text played in real time passed its limit), or decodes with libwhisper on both cores: one suite at a time,
    /// beside the desktop pass (each waits on real time, about 30 % of 2 cores).
    @Tag public static var modelLoading: Self
    /// Types into real windows of a desktop it starts (sway, Xvfb, GNOME Shell 43 and 48, KWin): keys sent beside a
    /// busy machine arrive late or not at all, so one suite at a time, the speech model at hand, beside the
    /// model-loading pass only.
    @Tag public static var desktop: Self
    /// Types into terminals of Xvfb or a headless sway, with the command-line tools and Notula's own clipboard: light
    /// hosts that stand a busy machine (the clipboard suites passed 10 of 10 beside 4 busy loops), so they run after
    /// the model-loading suites, beside the heavier desktops, a suite at a time.
    @Tag public static var lightDesktop: Self
    /// Installs the release binaries, which the other passes' time builds: the Debian package on this machine for a
    /// while (its activation file would start /usr/bin/notulad for any other suite's session bus, so last and alone)
    /// and a staged install run without the toolchain.
    @Tag public static var package: Self
}
