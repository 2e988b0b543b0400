// libsherpa-onnx-c-api.so is loaded with dlopen; this target only declares what is called of it (CSherpa.h).
