// CSherpa.h beside the sherpa-onnx-core 2.0.1 wheel's c-api.h: every struct's size, and the offset of every field
// Notula sets or reads. SherpaLayoutTests compiles it; it compiles only where the two agree.
#include <stddef.h>

#include "CSherpa.h"
#include "sherpa-onnx/c-api/c-api.h"

#define SAME_SIZE(ours, theirs) _Static_assert(sizeof(ours) == sizeof(theirs), #ours " is not the size of " #theirs)
#define SAME_PLACE(ours, theirs, field) \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "." #field " is not where " #theirs " has it")

SAME_SIZE(notula_sherpa_feature_config, SherpaOnnxFeatureConfig);
SAME_SIZE(notula_sherpa_transducer_config, SherpaOnnxOfflineTransducerModelConfig);
SAME_SIZE(notula_sherpa_moonshine_config, SherpaOnnxOfflineMoonshineModelConfig);
SAME_SIZE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig);
SAME_SIZE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig);
SAME_SIZE(notula_sherpa_silero_config, SherpaOnnxSileroVadModelConfig);
SAME_SIZE(notula_sherpa_vad_config, SherpaOnnxVadModelConfig);
SAME_SIZE(notula_sherpa_speech_segment, SherpaOnnxSpeechSegment);

SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, transducer);
SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, tokens);
SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, num_threads);
SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, provider);
SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, model_type);
SAME_PLACE(notula_sherpa_model_config, SherpaOnnxOfflineModelConfig, moonshine);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, feat_config);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, model_config);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, decoding_method);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, hotwords_file);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, hotwords_score);
SAME_PLACE(notula_sherpa_recognizer_config, SherpaOnnxOfflineRecognizerConfig, blank_penalty);
SAME_PLACE(notula_sherpa_result, SherpaOnnxOfflineRecognizerResult, text);
SAME_PLACE(notula_sherpa_result, SherpaOnnxOfflineRecognizerResult, timestamps);
SAME_PLACE(notula_sherpa_result, SherpaOnnxOfflineRecognizerResult, count);
SAME_PLACE(notula_sherpa_result, SherpaOnnxOfflineRecognizerResult, tokens_arr);
SAME_PLACE(notula_sherpa_result, SherpaOnnxOfflineRecognizerResult, durations);
SAME_PLACE(notula_sherpa_silero_config, SherpaOnnxSileroVadModelConfig, window_size);
SAME_PLACE(notula_sherpa_silero_config, SherpaOnnxSileroVadModelConfig, max_speech_duration);
SAME_PLACE(notula_sherpa_vad_config, SherpaOnnxVadModelConfig, sample_rate);
SAME_PLACE(notula_sherpa_vad_config, SherpaOnnxVadModelConfig, provider);
SAME_PLACE(notula_sherpa_speech_segment, SherpaOnnxSpeechSegment, n);
