#!/usr/bin/env python3
"""Makes tiny ONNX models that sherpa-onnx 2.0.1 loads as Parakeet TDT and Moonshine, and broken ones.

    make-models.py OUT_DIR

The recognisers decode them end to end, but what they "hear" is only loudness: a frame louder than a
threshold lets the next word of a fixed sentence out, a quiet one gives nothing. So silence decodes to
"", and any second of speech to SENTENCE; the same inputs, outputs and metadata as sherpa-onnx's archives
(with tiny dimensions), so the recognisers run every step they run on the real models.
"""
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SENTENCE_PIECES = ["▁no", "tula", "▁heard", "▁you"]
SENTENCE = "notula heard you"
# Older than the newest so that the onnxruntime inside sherpa-onnx (1.2x) opens them.
OPSET = 17
IR_VERSION = 8

# Parakeet TDT 0.6B: 128 log-mel bins, 8× subsampling, 2 LSTM layers in the prediction network, durations 0-4.
PARAKEET_FEATURES = 128
PARAKEET_SUBSAMPLING = 8
PARAKEET_DURATIONS = 5
PARAKEET_RNN_LAYERS = 2
# sherpa feeds NeMo natural-log mel energies (floored at log(FLT_EPSILON) ≈ -15.9) of samples in [-1, 1];
# their mean over the bins crosses -10.3 at about -45 dBFS RMS of white noise (found by trying sox's noise).
PARAKEET_LOUD_LOG_MEL = -10.3

# Moonshine's preprocessor makes one frame of 384 samples (24 ms at 16 kHz); sherpa allows 6 tokens a second.
MOONSHINE_FRAME = 384
MOONSHINE_LOUD_POWER = 3e-5  # mean square of samples in [-1, 1]: -45 dBFS RMS, as Parakeet's
MOONSHINE_SOS, MOONSHINE_EOS = 1, 2


def const(name, array):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(array), name))


def save(graph, path, metadata=None):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="notula-make-models")
    model.ir_version = IR_VERSION
    for key, value in (metadata or {}).items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, str(value)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def tensor(name, element_type, shape):
    return helper.make_tensor_value_info(name, element_type, shape)


# ---- Parakeet TDT (sherpa's nemo_transducer) ------------------------------------------------------------------

def parakeet_tokens():
    # NeMo's vocabulary, then the blank last: sherpa requires <blk> at vocab_size, one past NeMo's count.
    return ["<unk>"] + SENTENCE_PIECES + ["<blk>"]


def parakeet_encoder(path, broadcast_failure=False):
    """audio_signal (B, 128, T) log-mel, length (B,) → outputs (B, 1, ⌈T/8⌉): 1 where any of its 8 frames is loud."""
    nodes = [
        const("threshold", np.array(PARAKEET_LOUD_LOG_MEL, np.float32)),
        const("round_up", np.array(PARAKEET_SUBSAMPLING - 1, np.int64)),
        const("subsampling_scalar", np.array(PARAKEET_SUBSAMPLING, np.int64)),
    ]
    features = "audio_signal"
    if broadcast_failure:
        # Loads (T is symbolic) but no audio of 7 frames reaches it: onnxruntime fails at the first Run.
        nodes.append(const("seven_frames", np.zeros((1, PARAKEET_FEATURES, 7), np.float32)))
        nodes.append(helper.make_node("Add", ["audio_signal", "seven_frames"], ["checked_signal"]))
        features = "checked_signal"
    nodes += [
        helper.make_node("ReduceMean", [features], ["level"], axes=[1], keepdims=1),
        # Padded at the end so that a last partial group of frames counts, as NeMo's subsampling counts it.
        helper.make_node("MaxPool", ["level"], ["subsampled"], kernel_shape=[PARAKEET_SUBSAMPLING],
                         strides=[PARAKEET_SUBSAMPLING], pads=[0, PARAKEET_SUBSAMPLING - 1]),
        helper.make_node("Greater", ["subsampled", "threshold"], ["is_loud"]),
        helper.make_node("Cast", ["is_loud"], ["outputs"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["length", "round_up"], ["padded_length"]),
        helper.make_node("Div", ["padded_length", "subsampling_scalar"], ["encoded_lengths"]),
    ]
    graph = helper.make_graph(
        nodes, "parakeet_encoder",
        [tensor("audio_signal", TensorProto.FLOAT, ["B", PARAKEET_FEATURES, "T"]),
         tensor("length", TensorProto.INT64, ["B"])],
        [tensor("outputs", TensorProto.FLOAT, ["B", 1, "T_out"]),
         tensor("encoded_lengths", TensorProto.INT64, ["B"])])
    save(graph, path, {
        "model_type": "EncDecRNNTBPEModel",
        "vocab_size": len(parakeet_tokens()) - 1,
        "subsampling_factor": PARAKEET_SUBSAMPLING,
        # The real archives say per_feature; none keeps the absolute level the loudness test needs.
        "normalize_type": "NA",
        "pred_rnn_layers": PARAKEET_RNN_LAYERS,
        "pred_hidden": parakeet_hidden(),
        "feat_dim": PARAKEET_FEATURES,
        "is_giga_am": 0,
        # sherpa takes a NeMo transducer for TDT when its url names "tdt".
        "url": "notula-test/parakeet-tdt-made",
        "comment": "Notula's made test model: loud frames spell '%s'" % SENTENCE,
    })


def parakeet_hidden():
    # The prediction network's output is the one-hot of how many words were said (0…len, then stays at len).
    return len(SENTENCE_PIECES) + 1


def parakeet_decoder(path):
    """targets (B, 1), target_length (B,), two LSTM states → its output (B, H, 1), length, next states.

    The first state counts the words emitted: sherpa runs the decoder once at the start and once after each word.
    """
    hidden = parakeet_hidden()
    nodes = [
        const("one", np.array(1.0, np.float32)),
        const("last_position", np.array(len(SENTENCE_PIECES), np.float32)),
        const("one_hot_values", np.array([0.0, 1.0], np.float32)),
        const("depth", np.array(hidden, np.int64)),
        const("output_shape", np.array([1, hidden, 1], np.int64)),
        const("one_element", np.array([1], np.int64)),
        helper.make_node("ReduceMax", ["states.1"], ["all_words_said"], keepdims=0),
        helper.make_node("Reshape", ["all_words_said", "one_element"], ["words_said"]),
        helper.make_node("Min", ["words_said", "last_position"], ["position_float"]),
        helper.make_node("Cast", ["position_float"], ["position"], to=TensorProto.INT64),
        helper.make_node("OneHot", ["position", "depth", "one_hot_values"], ["position_one_hot"]),
        helper.make_node("Reshape", ["position_one_hot", "output_shape"], ["outputs"]),
        helper.make_node("Identity", ["target_length"], ["prednet_lengths"]),
        helper.make_node("Add", ["states.1", "one"], ["states"]),
        helper.make_node("Identity", ["onnx::Slice_3"], ["162"]),
    ]
    state_shape = [PARAKEET_RNN_LAYERS, "B", hidden]
    graph = helper.make_graph(
        nodes, "parakeet_decoder",
        [tensor("targets", TensorProto.INT32, ["B", 1]),
         tensor("target_length", TensorProto.INT32, ["B"]),
         tensor("states.1", TensorProto.FLOAT, state_shape),
         tensor("onnx::Slice_3", TensorProto.FLOAT, state_shape)],
        [tensor("outputs", TensorProto.FLOAT, ["B", hidden, 1]),
         tensor("prednet_lengths", TensorProto.INT32, ["B"]),
         tensor("states", TensorProto.FLOAT, state_shape),
         tensor("162", TensorProto.FLOAT, state_shape)])
    save(graph, path)


def parakeet_joiner(path):
    """encoder_outputs (1, 1, 1), decoder_outputs (1, H, 1) → logits (1, 1, 1, vocab + durations).

    A loud frame gives the word at the decoder's position (blank once all are said), a quiet one blank;
    the duration is always 1, so each loud frame says at most one word.
    """
    tokens = parakeet_tokens()
    blank = len(tokens) - 1
    word_at_position = np.zeros((parakeet_hidden(), len(tokens)), np.float32)
    for position, piece in enumerate(SENTENCE_PIECES):
        word_at_position[position, tokens.index(piece)] = 1.0
    word_at_position[len(SENTENCE_PIECES), blank] = 1.0
    blank_only = np.zeros(len(tokens), np.float32)
    blank_only[blank] = 1.0
    durations = np.zeros(PARAKEET_DURATIONS, np.float32)
    durations[1] = 1.0
    output_size = len(tokens) + PARAKEET_DURATIONS
    nodes = [
        const("word_at_position", word_at_position),
        const("blank_only", blank_only),
        const("durations", durations),
        const("one", np.array(1.0, np.float32)),
        const("scalar_shape", np.array([1], np.int64)),
        const("position_shape", np.array([1, parakeet_hidden()], np.int64)),
        const("logit_shape", np.array([1, 1, 1, output_size], np.int64)),
        const("vocab_shape", np.array([len(tokens)], np.int64)),
        helper.make_node("Reshape", ["encoder_outputs", "scalar_shape"], ["loud"]),
        helper.make_node("Reshape", ["decoder_outputs", "position_shape"], ["position"]),
        helper.make_node("MatMul", ["position", "word_at_position"], ["word_matrix"]),
        helper.make_node("Reshape", ["word_matrix", "vocab_shape"], ["word"]),
        helper.make_node("Mul", ["word", "loud"], ["loud_word"]),
        helper.make_node("Sub", ["one", "loud"], ["quiet"]),
        helper.make_node("Mul", ["blank_only", "quiet"], ["quiet_blank"]),
        helper.make_node("Add", ["loud_word", "quiet_blank"], ["token_logits"]),
        helper.make_node("Concat", ["token_logits", "durations"], ["all_logits"], axis=0),
        helper.make_node("Reshape", ["all_logits", "logit_shape"], ["outputs"]),
    ]
    graph = helper.make_graph(
        nodes, "parakeet_joiner",
        [tensor("encoder_outputs", TensorProto.FLOAT, ["B", 1, "T"]),
         tensor("decoder_outputs", TensorProto.FLOAT, ["B", parakeet_hidden(), "U"])],
        [tensor("outputs", TensorProto.FLOAT, ["B", "T", "U", output_size])])
    save(graph, path)


def write_tokens(path, tokens):
    with open(path, "w", encoding="utf-8") as file:
        for index, token in enumerate(tokens):
            file.write(f"{token} {index}\n")


def make_parakeet(folder, broadcast_failure=False):
    os.makedirs(folder, exist_ok=True)
    parakeet_encoder(os.path.join(folder, "encoder.int8.onnx"), broadcast_failure)
    parakeet_decoder(os.path.join(folder, "decoder.int8.onnx"))
    parakeet_joiner(os.path.join(folder, "joiner.int8.onnx"))
    write_tokens(os.path.join(folder, "tokens.txt"), parakeet_tokens())


# ---- Moonshine v1 (tiny) ----------------------------------------------------------------------------------------

def moonshine_tokens():
    return ["<unk>", "<s>", "</s>"] + SENTENCE_PIECES


def moonshine_preprocessor(path):
    """args_0 (1, N) samples → features (1, ⌊N/384⌋, 1): each frame's mean square."""
    nodes = [
        const("channel_axis", np.array([1], np.int64)),
        helper.make_node("Unsqueeze", ["args_0", "channel_axis"], ["signal"]),
        helper.make_node("Mul", ["signal", "signal"], ["power"]),
        helper.make_node("AveragePool", ["power"], ["frame_power"],
                         kernel_shape=[MOONSHINE_FRAME], strides=[MOONSHINE_FRAME]),
        helper.make_node("Transpose", ["frame_power"], ["features"], perm=[0, 2, 1]),
    ]
    graph = helper.make_graph(
        nodes, "moonshine_preprocess",
        [tensor("args_0", TensorProto.FLOAT, [1, "N"])],
        [tensor("features", TensorProto.FLOAT, [1, "T", 1])])
    save(graph, path)


def moonshine_encoder(path, broadcast_failure=False):
    """features (1, T, 1), features_len (1,) int32 → encoder_out (1, T, 1): 1 where the frame is loud."""
    nodes = [const("threshold", np.array(MOONSHINE_LOUD_POWER, np.float32))]
    features = "features"
    if broadcast_failure:
        # As Parakeet's: loads, then fails at the first Run on any audio but 7 frames long.
        nodes.append(const("seven_frames", np.zeros((1, 7, 1), np.float32)))
        nodes.append(helper.make_node("Add", ["features", "seven_frames"], ["checked_features"]))
        features = "checked_features"
    nodes += [
        helper.make_node("Greater", [features, "threshold"], ["is_loud"]),
        helper.make_node("Cast", ["is_loud"], ["encoder_out"], to=TensorProto.FLOAT),
    ]
    graph = helper.make_graph(
        nodes, "moonshine_encode",
        [tensor("features", TensorProto.FLOAT, [1, "T", 1]),
         tensor("features_len", TensorProto.INT32, [1])],
        [tensor("encoder_out", TensorProto.FLOAT, [1, "T", 1])])
    save(graph, path)


def moonshine_next_token_nodes():
    """The word after seq_len - 1 words (</s> after the last), or </s> at once when no frame is loud."""
    tokens = moonshine_tokens()
    word_at_position = np.zeros((len(SENTENCE_PIECES) + 1, len(tokens)), np.float32)
    for position, piece in enumerate(SENTENCE_PIECES):
        word_at_position[position, tokens.index(piece)] = 1.0
    word_at_position[len(SENTENCE_PIECES), MOONSHINE_EOS] = 1.0
    eos_only = np.zeros(len(tokens), np.float32)
    eos_only[MOONSHINE_EOS] = 1.0
    return [
        const("word_at_position", word_at_position),
        const("eos_only", eos_only),
        const("one", np.array(1.0, np.float32)),
        const("one_int", np.array([1], np.int32)),
        const("last_position", np.array([len(SENTENCE_PIECES)], np.int32)),
        const("logit_shape", np.array([1, 1, len(tokens)], np.int64)),
        helper.make_node("Sub", ["seq_len", "one_int"], ["words_said"]),
        helper.make_node("Min", ["words_said", "last_position"], ["position"]),
        helper.make_node("Gather", ["word_at_position", "position"], ["word"], axis=0),
        helper.make_node("ReduceMax", ["encoder_out"], ["heard"], keepdims=0),
        helper.make_node("Mul", ["word", "heard"], ["heard_word"]),
        helper.make_node("Sub", ["one", "heard"], ["silent"]),
        helper.make_node("Mul", ["eos_only", "silent"], ["silent_eos"]),
        helper.make_node("Add", ["heard_word", "silent_eos"], ["scores"]),
        helper.make_node("Reshape", ["scores", "logit_shape"], ["logits"]),
    ]


def moonshine_decoder_inputs():
    return [tensor("args_0", TensorProto.INT32, [1, 1]),
            tensor("encoder_out", TensorProto.FLOAT, [1, "T", 1]),
            tensor("seq_len", TensorProto.INT32, [1])]


def moonshine_uncached_decoder(path):
    """The first step: logits (1, 1, V) and the caches (self-attention keys: one a token; cross: the encoder's)."""
    nodes = moonshine_next_token_nodes() + [
        const("cache_axis", np.array([1], np.int64)),
        const("first_key", np.ones((1, 1, 1, 1), np.float32)),
        helper.make_node("Identity", ["first_key"], ["self_key_cache"]),
        helper.make_node("Unsqueeze", ["encoder_out", "cache_axis"], ["cross_key_cache"]),
    ]
    graph = helper.make_graph(
        nodes, "moonshine_uncached_decode", moonshine_decoder_inputs(),
        [tensor("logits", TensorProto.FLOAT, [1, 1, len(moonshine_tokens())]),
         tensor("self_key_cache", TensorProto.FLOAT, [1, 1, "S", 1]),
         tensor("cross_key_cache", TensorProto.FLOAT, [1, 1, "T", 1])])
    save(graph, path)


def moonshine_cached_decoder(path):
    """Each next step: the caches come back in, the self-attention one a token longer."""
    nodes = moonshine_next_token_nodes() + [
        const("next_key", np.ones((1, 1, 1, 1), np.float32)),
        helper.make_node("Concat", ["past_self_key", "next_key"], ["self_key_cache"], axis=2),
        helper.make_node("Identity", ["past_cross_key"], ["cross_key_cache"]),
    ]
    graph = helper.make_graph(
        nodes, "moonshine_cached_decode",
        moonshine_decoder_inputs() + [
            tensor("past_self_key", TensorProto.FLOAT, [1, 1, "S", 1]),
            tensor("past_cross_key", TensorProto.FLOAT, [1, 1, "T", 1])],
        [tensor("logits", TensorProto.FLOAT, [1, 1, len(moonshine_tokens())]),
         tensor("self_key_cache", TensorProto.FLOAT, [1, 1, "S_next", 1]),
         tensor("cross_key_cache", TensorProto.FLOAT, [1, 1, "T", 1])])
    save(graph, path)


def make_moonshine(folder, broadcast_failure=False):
    os.makedirs(folder, exist_ok=True)
    moonshine_preprocessor(os.path.join(folder, "preprocess.onnx"))
    moonshine_encoder(os.path.join(folder, "encode.int8.onnx"), broadcast_failure)
    moonshine_uncached_decoder(os.path.join(folder, "uncached_decode.int8.onnx"))
    moonshine_cached_decoder(os.path.join(folder, "cached_decode.int8.onnx"))
    write_tokens(os.path.join(folder, "tokens.txt"), moonshine_tokens())


# ---- Broken models ----------------------------------------------------------------------------------------------

def make_truncated(source, folder):
    """Parakeet with its encoder cut in half, as an interrupted copy leaves it."""
    shutil.copytree(source, folder, dirs_exist_ok=True)
    encoder = os.path.join(folder, "encoder.int8.onnx")
    with open(encoder, "rb") as file:
        data = file.read()
    with open(encoder, "wb") as file:
        file.write(data[: len(data) // 2])


def make_tokens_mismatch(source, folder):
    """Parakeet whose tokens.txt lacks a line: onnxruntime loads it, sherpa then ends the process (exit status 255)."""
    shutil.copytree(source, folder, dirs_exist_ok=True)
    write_tokens(os.path.join(folder, "tokens.txt"), parakeet_tokens()[1:])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-models.py OUT_DIR")
    out = sys.argv[1]
    make_parakeet(os.path.join(out, "parakeet"))
    make_moonshine(os.path.join(out, "moonshine"))
    make_truncated(os.path.join(out, "parakeet"), os.path.join(out, "broken", "truncated"))
    make_tokens_mismatch(os.path.join(out, "parakeet"), os.path.join(out, "broken", "tokens-mismatch"))
    make_parakeet(os.path.join(out, "broken", "parakeet-runtime-failure"), broadcast_failure=True)
    make_moonshine(os.path.join(out, "broken", "moonshine-runtime-failure"), broadcast_failure=True)
    with open(os.path.join(out, "SENTENCE"), "w", encoding="utf-8") as file:
        file.write(SENTENCE + "\n")


if __name__ == "__main__":
    main()
