// Runs sherpa-onnx's C API as notulad will: the struct sizes it declares, an offline recogniser on a model folder,
// and Silero's voice detector. check.py builds it against the wheel's c-api.h and runs each case in its own process,
// so that an abort inside sherpa shows as this program's exit status.
//
//   check sizes
//   check recognize parakeet|moonshine MODEL_DIR WAV
//   check vad SILERO_ONNX WAV
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sherpa-onnx/c-api/c-api.h"

static double seconds(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

// Resident memory in MiB, from /proc/self/status.
static double resident_mib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (status && fgets(line, sizeof line, status))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    if (status) fclose(status);
    return kib / 1024.0;
}

static void print_sizes(void) {
    printf("version %s (git %s, onnxruntime %s)\n", SherpaOnnxGetVersionStr(), SherpaOnnxGetGitSha1(),
           SherpaOnnxGetOnnxruntimeVersionStr());
#define SIZE(type) printf("sizeof(%s) = %zu\n", #type, sizeof(type))
    SIZE(SherpaOnnxFeatureConfig);
    SIZE(SherpaOnnxOfflineTransducerModelConfig);
    SIZE(SherpaOnnxOfflineMoonshineModelConfig);
    SIZE(SherpaOnnxOfflineModelConfig);
    SIZE(SherpaOnnxOfflineLMConfig);
    SIZE(SherpaOnnxHomophoneReplacerConfig);
    SIZE(SherpaOnnxOfflineCtcFstDecoderConfig);
    SIZE(SherpaOnnxOfflineRecognizerConfig);
    SIZE(SherpaOnnxOfflineRecognizerResult);
    SIZE(SherpaOnnxSileroVadModelConfig);
    SIZE(SherpaOnnxTenVadModelConfig);
    SIZE(SherpaOnnxVadModelConfig);
    SIZE(SherpaOnnxSpeechSegment);
    SIZE(SherpaOnnxWave);
#undef SIZE
#define OFFSET(type, field) printf("offsetof(%s, %s) = %zu\n", #type, #field, __builtin_offsetof(type, field))
    OFFSET(SherpaOnnxOfflineModelConfig, tokens);
    OFFSET(SherpaOnnxOfflineModelConfig, model_type);
    OFFSET(SherpaOnnxOfflineModelConfig, moonshine);
    OFFSET(SherpaOnnxOfflineRecognizerConfig, model_config);
    OFFSET(SherpaOnnxOfflineRecognizerConfig, decoding_method);
    OFFSET(SherpaOnnxVadModelConfig, sample_rate);
    OFFSET(SherpaOnnxVadModelConfig, ten_vad);
#undef OFFSET
}

static char *join(const char *folder, const char *name) {
    char *path = malloc(strlen(folder) + strlen(name) + 2);
    sprintf(path, "%s/%s", folder, name);
    return path;
}

static int recognize(const char *kind, const char *folder, const char *wav_path) {
    const SherpaOnnxWave *wave = SherpaOnnxReadWave(wav_path);
    if (!wave) {
        fprintf(stderr, "cannot read %s\n", wav_path);
        return 1;
    }
    SherpaOnnxOfflineRecognizerConfig config;
    memset(&config, 0, sizeof config);  // every other family's paths empty, as the C API expects
    config.feat_config.sample_rate = 16000;
    config.feat_config.feature_dim = 80;  // the NeMo model's feat_dim metadata overrides it
    config.model_config.tokens = join(folder, "tokens.txt");
    config.model_config.num_threads = 1;
    config.model_config.provider = "cpu";
    config.decoding_method = "greedy_search";
    if (strcmp(kind, "parakeet") == 0) {
        config.model_config.model_type = "nemo_transducer";
        config.model_config.transducer.encoder = join(folder, "encoder.int8.onnx");
        config.model_config.transducer.decoder = join(folder, "decoder.int8.onnx");
        config.model_config.transducer.joiner = join(folder, "joiner.int8.onnx");
    } else {
        config.model_config.moonshine.preprocessor = join(folder, "preprocess.onnx");
        config.model_config.moonshine.encoder = join(folder, "encode.int8.onnx");
        config.model_config.moonshine.uncached_decoder = join(folder, "uncached_decode.int8.onnx");
        config.model_config.moonshine.cached_decoder = join(folder, "cached_decode.int8.onnx");
    }
    double before = resident_mib();
    double started = seconds(CLOCK_MONOTONIC);
    const SherpaOnnxOfflineRecognizer *recognizer = SherpaOnnxCreateOfflineRecognizer(&config);
    double loaded = seconds(CLOCK_MONOTONIC);
    if (!recognizer) {
        printf("recognizer: NULL (load failed) after %.1f ms\n", (loaded - started) * 1e3);
        return 2;
    }
    printf("loaded in %.1f ms, RSS %.1f MiB (%.1f before)\n", (loaded - started) * 1e3, resident_mib(), before);
    fflush(stdout);

    const SherpaOnnxOfflineStream *stream = SherpaOnnxCreateOfflineStream(recognizer);
    SherpaOnnxAcceptWaveformOffline(stream, wave->sample_rate, wave->samples, wave->num_samples);
    double cpu_started = seconds(CLOCK_PROCESS_CPUTIME_ID), decode_started = seconds(CLOCK_MONOTONIC);
    SherpaOnnxDecodeOfflineStream(recognizer, stream);
    double decoded = seconds(CLOCK_MONOTONIC), cpu_decoded = seconds(CLOCK_PROCESS_CPUTIME_ID);
    const SherpaOnnxOfflineRecognizerResult *result = SherpaOnnxGetOfflineStreamResult(stream);
    double audio_seconds = (double)wave->num_samples / wave->sample_rate;
    printf("audio %.2f s, decoded in %.2f ms wall, %.2f ms CPU\n", audio_seconds, (decoded - decode_started) * 1e3,
           (cpu_decoded - cpu_started) * 1e3);
    printf("text: \"%s\"\n", result->text);
    for (int32_t i = 0; i < result->count; ++i) {
        printf("  token %d \"%s\"", i, result->tokens_arr[i]);
        if (result->timestamps) printf(" at %.2f s", result->timestamps[i]);
        if (result->durations) printf(" for %.2f s", result->durations[i]);
        printf("\n");
    }
    printf("json: %s\n", result->json);
    SherpaOnnxDestroyOfflineRecognizerResult(result);
    SherpaOnnxDestroyOfflineStream(stream);
    SherpaOnnxDestroyOfflineRecognizer(recognizer);
    SherpaOnnxFreeWave(wave);
    return 0;
}

static void print_segments(const SherpaOnnxVoiceActivityDetector *detector) {
    while (!SherpaOnnxVoiceActivityDetectorEmpty(detector)) {
        const SherpaOnnxSpeechSegment *segment = SherpaOnnxVoiceActivityDetectorFront(detector);
        printf("segment start %.2f s length %.2f s\n", segment->start / 16000.0, segment->n / 16000.0);
        SherpaOnnxDestroySpeechSegment(segment);
        SherpaOnnxVoiceActivityDetectorPop(detector);
    }
}

static int detect_voice(const char *model, const char *wav_path) {
    const SherpaOnnxWave *wave = SherpaOnnxReadWave(wav_path);
    if (!wave) {
        fprintf(stderr, "cannot read %s\n", wav_path);
        return 1;
    }
    SherpaOnnxVadModelConfig config;
    memset(&config, 0, sizeof config);
    config.silero_vad.model = model;
    config.silero_vad.threshold = 0.5f;
    config.silero_vad.min_silence_duration = 0.25f;
    config.silero_vad.min_speech_duration = 0.25f;
    config.silero_vad.max_speech_duration = 20.0f;
    config.silero_vad.window_size = 512;
    config.sample_rate = 16000;
    config.num_threads = 1;
    config.provider = "cpu";
    const SherpaOnnxVoiceActivityDetector *detector = SherpaOnnxCreateVoiceActivityDetector(&config, 30.0f);
    if (!detector) {
        printf("detector: NULL (load failed)\n");
        return 2;
    }
    printf("detector loaded, RSS %.1f MiB\n", resident_mib());
    double cpu_started = seconds(CLOCK_PROCESS_CPUTIME_ID);
    // In 100 ms blocks, as notulad's capture delivers them.
    for (int32_t offset = 0; offset < wave->num_samples; offset += 1600) {
        int32_t n = wave->num_samples - offset < 1600 ? wave->num_samples - offset : 1600;
        SherpaOnnxVoiceActivityDetectorAcceptWaveform(detector, wave->samples + offset, n);
        print_segments(detector);
    }
    SherpaOnnxVoiceActivityDetectorFlush(detector);
    print_segments(detector);
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_started;
    double audio_seconds = (double)wave->num_samples / wave->sample_rate;
    printf("audio %.2f s, detector CPU %.1f ms = %.2f ms per second of audio\n", audio_seconds, cpu * 1e3,
           cpu * 1e3 / audio_seconds);
    SherpaOnnxDestroyVoiceActivityDetector(detector);
    SherpaOnnxFreeWave(wave);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "sizes") == 0) {
        print_sizes();
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "recognize") == 0) return recognize(argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "vad") == 0) return detect_voice(argv[2], argv[3]);
    fprintf(stderr, "usage: check sizes | recognize parakeet|moonshine MODEL_DIR WAV | vad SILERO_ONNX WAV\n");
    return 64;
}
