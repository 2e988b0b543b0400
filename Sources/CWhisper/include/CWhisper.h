// What Notula calls of libwhisper 1.8.5, which ships no header: the structs passed by value and the signatures of the
// functions looked up with dlsym, declared from whisper.h at tag v1.8.5. The layout changes between releases, so the
// library is refused unless whisper_version() is "1.8.5", and the sizes are checked here.
#ifndef NOTULA_CWHISPER_H
#define NOTULA_CWHISPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct whisper_context;
struct whisper_state;

struct whisper_aheads {
    size_t n_heads;
    const void *heads;
};

struct whisper_context_params {
    bool use_gpu;
    bool flash_attn;
    int gpu_device;
    bool dtw_token_timestamps;
    int dtw_aheads_preset;
    int dtw_n_top;
    struct whisper_aheads dtw_aheads;
    size_t dtw_mem_size;
};

struct whisper_vad_params {
    float threshold;
    int min_speech_duration_ms;
    int min_silence_duration_ms;
    float max_speech_duration_s;
    int speech_pad_ms;
    float samples_overlap;
};

typedef bool (*whisper_abort_callback)(void *user_data);

struct whisper_full_params {
    int strategy;
    int n_threads;
    int n_max_text_ctx;
    int offset_ms;
    int duration_ms;
    bool translate;
    bool no_context;
    bool no_timestamps;
    bool single_segment;
    bool print_special;
    bool print_progress;
    bool print_realtime;
    bool print_timestamps;
    bool token_timestamps;
    float thold_pt;
    float thold_ptsum;
    int max_len;
    bool split_on_word;
    int max_tokens;
    bool debug_mode;
    int audio_ctx;
    bool tdrz_enable;
    const char *suppress_regex;
    const char *initial_prompt;
    bool carry_initial_prompt;
    const int32_t *prompt_tokens;
    int prompt_n_tokens;
    const char *language;
    bool detect_language;
    bool suppress_blank;
    bool suppress_nst;
    float temperature;
    float max_initial_ts;
    float length_penalty;
    float temperature_inc;
    float entropy_thold;
    float logprob_thold;
    float no_speech_thold;
    struct { int best_of; } greedy;
    struct { int beam_size; float patience; } beam_search;
    void *new_segment_callback;
    void *new_segment_callback_user_data;
    void *progress_callback;
    void *progress_callback_user_data;
    void *encoder_begin_callback;
    void *encoder_begin_callback_user_data;
    whisper_abort_callback abort_callback;
    void *abort_callback_user_data;
    void *logits_filter_callback;
    void *logits_filter_callback_user_data;
    const void *grammar_rules;
    size_t n_grammar_rules;
    size_t i_start_rule;
    float grammar_penalty;
    bool vad;
    const char *vad_model_path;
    struct whisper_vad_params vad_params;
};

_Static_assert(sizeof(struct whisper_context_params) == 48, "whisper_context_params of libwhisper 1.8.5");
_Static_assert(sizeof(struct whisper_full_params) == 304, "whisper_full_params of libwhisper 1.8.5");
_Static_assert(offsetof(struct whisper_full_params, language) == 104, "whisper_full_params.language");
_Static_assert(offsetof(struct whisper_full_params, abort_callback) == 208, "whisper_full_params.abort_callback");

enum { NOTULA_WHISPER_SAMPLING_GREEDY = 0 };

// ggml's log levels, as whisper_log_set's callback is given them.
enum { NOTULA_GGML_LOG_LEVEL_DEBUG = 1, NOTULA_GGML_LOG_LEVEL_INFO = 2, NOTULA_GGML_LOG_LEVEL_WARN = 3, NOTULA_GGML_LOG_LEVEL_ERROR = 4 };

typedef void (*whisper_log_callback)(int level, const char *text, void *user_data);
typedef void (*whisper_log_set_fn)(whisper_log_callback callback, void *user_data);
typedef struct whisper_context_params (*whisper_context_default_params_fn)(void);
typedef struct whisper_context *(*whisper_init_from_file_with_params_fn)(const char *path, struct whisper_context_params params);
typedef struct whisper_full_params (*whisper_full_default_params_fn)(int strategy);
typedef int (*whisper_full_with_state_fn)(
    struct whisper_context *ctx, struct whisper_state *state, struct whisper_full_params params, const float *samples, int n_samples);
typedef int (*whisper_full_n_segments_from_state_fn)(struct whisper_state *state);
typedef const char *(*whisper_full_get_segment_text_from_state_fn)(struct whisper_state *state, int segment);
typedef int64_t (*whisper_full_get_segment_t0_from_state_fn)(struct whisper_state *state, int segment);
typedef float (*whisper_full_get_segment_no_speech_prob_from_state_fn)(struct whisper_state *state, int segment);
typedef void (*whisper_free_fn)(struct whisper_context *ctx);
typedef struct whisper_state *(*whisper_init_state_fn)(struct whisper_context *ctx);
typedef void (*whisper_free_state_fn)(struct whisper_state *state);
typedef int (*whisper_pcm_to_mel_with_state_fn)(
    struct whisper_context *ctx, struct whisper_state *state, const float *samples, int n_samples, int n_threads);
typedef int (*whisper_lang_auto_detect_with_state_fn)(
    struct whisper_context *ctx, struct whisper_state *state, int offset_ms, int n_threads, float *lang_probs);
typedef int (*whisper_lang_max_id_fn)(void);
typedef int (*whisper_lang_id_fn)(const char *lang);
typedef int (*whisper_is_multilingual_fn)(struct whisper_context *ctx);

#endif
