// What Notula calls of sherpa-onnx 2.0.1's C API (libsherpa-onnx-c-api.so, opened with dlopen): the structs passed by
// pointer and the signatures of the functions looked up with dlsym, declared from the sherpa-onnx-core 2.0.1 wheel's
// c-api.h. The layout changes between releases, so the library is refused unless its version is "2.0.1", and
// SherpaLayoutTests compiles these declarations beside the wheel's header and compares every size and offset.
// The model families Notula does not load are opaque, zeroed room: the library reads them as empty.
#ifndef NOTULA_CSHERPA_H
#define NOTULA_CSHERPA_H

#include <stdint.h>

typedef struct notula_sherpa_feature_config {
    int32_t sample_rate;
    int32_t feature_dim;
} notula_sherpa_feature_config;

// A NeMo transducer (Parakeet TDT), as SherpaOnnxOfflineTransducerModelConfig.
typedef struct notula_sherpa_transducer_config {
    const char *encoder;
    const char *decoder;
    const char *joiner;
} notula_sherpa_transducer_config;

// Moonshine (v1: four files; v2: encoder and merged decoder), as SherpaOnnxOfflineMoonshineModelConfig.
typedef struct notula_sherpa_moonshine_config {
    const char *preprocessor;
    const char *encoder;
    const char *uncached_decoder;
    const char *cached_decoder;
    const char *merged_decoder;
} notula_sherpa_moonshine_config;

// SherpaOnnxOfflineModelConfig.
typedef struct notula_sherpa_model_config {
    notula_sherpa_transducer_config transducer;
    // paraformer, nemo_ctc, whisper, tdnn
    const void *families_before_tokens[9];
    const char *tokens;
    int32_t num_threads;
    int32_t debug;
    const char *provider;
    const char *model_type;
    const char *modeling_unit;
    const char *bpe_vocab;
    const char *telespeech_ctc;
    // sense_voice
    const void *family_before_moonshine[3];
    notula_sherpa_moonshine_config moonshine;
    // fire_red_asr, dolphin, zipformer_ctc, canary, wenet_ctc, omnilingual, medasr, funasr_nano, fire_red_asr_ctc,
    // qwen3_asr, cohere_transcribe
    const void *families_after_moonshine[36];
} notula_sherpa_model_config;

// SherpaOnnxOfflineRecognizerConfig.
typedef struct notula_sherpa_recognizer_config {
    notula_sherpa_feature_config feat_config;
    notula_sherpa_model_config model_config;
    // lm_config: a language model's path and scale
    const void *language_model[2];
    const char *decoding_method;
    int32_t max_active_paths;
    const char *hotwords_file;
    float hotwords_score;
    const char *rule_fsts;
    const char *rule_fars;
    float blank_penalty;
    // hr (homophone replacer), ctc_fst_decoder_config
    const void *replacer_and_fst_decoder[5];
} notula_sherpa_recognizer_config;

// SherpaOnnxOfflineRecognizerResult, up to the fields Notula reads.
typedef struct notula_sherpa_result {
    const char *text;
    const float *timestamps;
    int32_t count;
    const char *tokens;
    const char *const *tokens_arr;
    const char *json;
    const char *lang;
    const char *emotion;
    const char *event;
    const float *durations;
} notula_sherpa_result;

// SherpaOnnxSileroVadModelConfig.
typedef struct notula_sherpa_silero_config {
    const char *model;
    float threshold;
    float min_silence_duration;
    float min_speech_duration;
    int32_t window_size;
    float max_speech_duration;
} notula_sherpa_silero_config;

// SherpaOnnxVadModelConfig.
typedef struct notula_sherpa_vad_config {
    notula_sherpa_silero_config silero_vad;
    int32_t sample_rate;
    int32_t num_threads;
    const char *provider;
    int32_t debug;
    // ten_vad, laid out as silero_vad
    const void *ten_vad[4];
} notula_sherpa_vad_config;

// SherpaOnnxSpeechSegment.
typedef struct notula_sherpa_speech_segment {
    int64_t start;
    const float *samples;
    int32_t n;
} notula_sherpa_speech_segment;

struct notula_sherpa_recognizer;
struct notula_sherpa_stream;
struct notula_sherpa_vad;

typedef const struct notula_sherpa_recognizer *(*notula_sherpa_create_recognizer_fn)(const notula_sherpa_recognizer_config *config);
typedef void (*notula_sherpa_destroy_recognizer_fn)(const struct notula_sherpa_recognizer *recognizer);
typedef const struct notula_sherpa_stream *(*notula_sherpa_create_stream_fn)(const struct notula_sherpa_recognizer *recognizer);
typedef void (*notula_sherpa_destroy_stream_fn)(const struct notula_sherpa_stream *stream);
typedef void (*notula_sherpa_accept_waveform_fn)(const struct notula_sherpa_stream *stream, int32_t sample_rate, const float *samples, int32_t n);
typedef void (*notula_sherpa_decode_fn)(const struct notula_sherpa_recognizer *recognizer, const struct notula_sherpa_stream *stream);
typedef const notula_sherpa_result *(*notula_sherpa_result_fn)(const struct notula_sherpa_stream *stream);
typedef void (*notula_sherpa_destroy_result_fn)(const notula_sherpa_result *result);

typedef const struct notula_sherpa_vad *(*notula_sherpa_create_vad_fn)(const notula_sherpa_vad_config *config, float buffer_size_in_seconds);
typedef void (*notula_sherpa_vad_fn)(const struct notula_sherpa_vad *vad);
typedef void (*notula_sherpa_vad_accept_fn)(const struct notula_sherpa_vad *vad, const float *samples, int32_t n);
typedef int32_t (*notula_sherpa_vad_empty_fn)(const struct notula_sherpa_vad *vad);
typedef const notula_sherpa_speech_segment *(*notula_sherpa_vad_front_fn)(const struct notula_sherpa_vad *vad);
typedef void (*notula_sherpa_destroy_segment_fn)(const notula_sherpa_speech_segment *segment);

_Static_assert(sizeof(notula_sherpa_model_config) == 504, "SherpaOnnxOfflineModelConfig of 2.0.1");
_Static_assert(sizeof(notula_sherpa_recognizer_config) == 624, "SherpaOnnxOfflineRecognizerConfig of 2.0.1");
_Static_assert(sizeof(notula_sherpa_vad_config) == 88, "SherpaOnnxVadModelConfig of 2.0.1");
_Static_assert(sizeof(notula_sherpa_speech_segment) == 24, "SherpaOnnxSpeechSegment of 2.0.1");

#endif
