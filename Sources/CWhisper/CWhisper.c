// libwhisper is loaded with dlopen; this target only declares what is called of it (CWhisper.h).
