#!/usr/bin/env python3
"""Decodes espeak-ng speech with the made models and runs Silero, all through sherpa-onnx's C API.

    check.py BIN_DIR MODELS_DIR      (after scripts/install-sherpa BIN_DIR --test; MODELS_DIR is .build/sherpa)

Evidence for issue 33, not a test of the project: it builds check.c against the wheel's c-api.h, runs each case
in its own process (an abort inside sherpa is that process's exit status) and prints what each printed.
"""
import glob
import os
import signal
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIRST = "The first sentence is short."
SECOND = "After a pause, the second one follows, a little longer than the first."


def build_checker(bin_dir, work):
    wheel = glob.glob(os.path.join(".build", "wheels", "sherpa_onnx_core-2.0.1-*.whl"))[0]
    with zipfile.ZipFile(wheel) as archive:
        archive.extract("sherpa_onnx/include/sherpa-onnx/c-api/c-api.h", work)
    library_dir = os.path.abspath(os.path.join(bin_dir, "sherpa"))
    checker = os.path.join(work, "check")
    subprocess.run(["cc", "-O2", "-Wall", "-I", os.path.join(work, "sherpa_onnx", "include"), "-o", checker,
                    os.path.join(HERE, "check.c"), "-L", library_dir, "-lsherpa-onnx-c-api",
                    "-Wl,-rpath," + library_dir], check=True)
    return checker


def speak(text, path):
    """espeak-ng's voice, made 16 kHz mono 16-bit as notulad records."""
    subprocess.run(["espeak-ng", "-w", path + ".22k.wav", text], check=True)
    subprocess.run(["sox", path + ".22k.wav", "-r", "16000", "-c", "1", "-b", "16", path], check=True)


def silence(seconds, path):
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path, "trim", "0", str(seconds)], check=True)


def duration(path):
    return float(subprocess.run(["soxi", "-D", path], check=True, capture_output=True, text=True).stdout)


def make_audio(work):
    audio = {name: os.path.join(work, name + ".wav") for name in
             ("first", "second", "gap", "silence", "yes", "one-second", "pauses", "minute", "noise-40dB",
              "noise-50dB")}
    speak(FIRST, audio["first"])
    speak(SECOND, audio["second"])
    speak("Yes.", audio["yes"])
    silence(1.0, audio["gap"])
    silence(1.5, audio["silence"])
    subprocess.run(["sox", audio["second"], audio["one-second"], "trim", "0", "1.0"], check=True)
    subprocess.run(["sox", audio["gap"], audio["first"], audio["gap"], audio["second"], audio["gap"],
                    audio["pauses"]], check=True)
    subprocess.run(["sox", audio["pauses"], audio["minute"], "repeat", "6"], check=True)
    # sox's white noise is -9.75 dBFS RMS before the gain: these are -40 and -50 dBFS, either side of the -45 the
    # made models take for sound.
    for name, gain in (("noise-40dB", "-30.25"), ("noise-50dB", "-40.25")):
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", audio[name], "synth", "1.0", "whitenoise",
                        "gain", gain], check=True)
    return audio


def run(checker, *arguments):
    print("$ check " + " ".join(arguments), flush=True)
    child = subprocess.run([checker, *arguments], capture_output=True, text=True)
    for line in child.stdout.splitlines():
        print("  " + line)
    for line in child.stderr.strip().splitlines()[:6]:
        print("  stderr: " + line.strip())
    status = child.returncode
    ended = f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
    print(f"  -> {ended}\n", flush=True)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check.py BIN_DIR MODELS_DIR")
    bin_dir, models = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        checker = build_checker(bin_dir, work)
        audio = make_audio(work)
        run(checker, "sizes")
        for kind in ("parakeet", "moonshine"):
            for name in ("first", "one-second", "yes", "silence", "noise-40dB", "noise-50dB"):
                print(f"# {kind} on {name} ({duration(audio[name]):.2f} s)")
                run(checker, "recognize", kind, os.path.join(models, kind), audio[name])
        print("# a truncated encoder")
        run(checker, "recognize", "parakeet", os.path.join(models, "broken", "truncated"), audio["first"])
        print("# a tokens.txt one line short of the model's vocabulary")
        run(checker, "recognize", "parakeet", os.path.join(models, "broken", "tokens-mismatch"), audio["first"])
        print("# models that fail at the first decode")
        run(checker, "recognize", "parakeet", os.path.join(models, "broken", "parakeet-runtime-failure"),
            audio["first"])
        run(checker, "recognize", "moonshine", os.path.join(models, "broken", "moonshine-runtime-failure"),
            audio["first"])
        first, second = duration(audio["first"]), duration(audio["second"])
        print(f"# Silero on speech with pauses: the sentences are at 1.00 s for {first:.2f} s "
              f"and at {2 + first:.2f} s for {second:.2f} s")
        run(checker, "vad", os.path.join(models, "silero_vad.onnx"), audio["pauses"])
        print(f"# Silero's cost on {duration(audio['minute']):.1f} s of the same")
        run(checker, "vad", os.path.join(models, "silero_vad.onnx"), audio["minute"])


if __name__ == "__main__":
    main()
