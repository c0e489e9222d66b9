#!/usr/bin/env python3
"""Folio's seq2seq decoding against the reference generate() of Hugging Face transformers v4.36, run
unchanged, paired and alternating, on the same random BART-base weights and the same source (issue 35).
Driven by bench/bench_generate.sh:

  hfgenerate_reference.py --hf-src DIR --bench-bin build/bench/bench_generate [--work /tmp/hfgen]
                          [--repeats 3] [--threads 1] [--source 1024] [--new 64] [--beams 4] [--ngram 3]
                          [--modes greedy,beam]

--hf-src is a transformers checkout's `src/transformers` folder at v4.36 (upstream commit
815ea8e8a23a85482225d371f7218cacc3e99e5b, as ../shared/fixtures/parity-next/bart_seq2seq/README.md
names it). This script fetches nothing and contains no Hugging Face code. From that folder it links,
unchanged: generation/{utils,beam_search,beam_constraints,logits_process,stopping_criteria,
configuration_utils,candidate_generator}.py, models/bart/{modeling,configuration}_bart.py,
modeling_attn_mask_utils.py, modeling_outputs.py, activations.py and cache_utils.py. The library
internals they import are the small shims below (our own code, no model or search math): stdlib
logging, identity docstring decorators, availability flags (no flash attention, accelerate or
deepspeed), hfarch_reference's packaging.version, empty auto-model mappings, placeholder ONNX configs, a ModelOutput (ordered dict whose
fields are also attributes), a PretrainedConfig holding its keyword arguments (with BART's
attribute_map), and a PreTrainedModel = nn.Module + the reference's GenerationMixin + config, whose
post_init ties the LM head to the shared embedding (as save_pretrained's loaders do).

Model: BartForConditionalGeneration at BART-base size (d_model 768, 6 + 6 layers, 12 heads, FFN
3072, vocab 50265, 1024 positions), eager attention, seeded random weights (hfarch_reference's
randomize: Linear N/sqrt(fan_in), Embedding 0.5 N, LayerNorm 1 + 0.1 N, other 0.1 N), saved as a
safetensors folder Folio loads; the source: `--source` random ids (0 first, 2 last).
Searches, the same on both sides: greedy with `--new` new tokens (no n-gram ban), and beam search
with `--beams` beams, no_repeat_ngram_size `--ngram`, no early stopping, length penalty 1; both with
min_length = max_length (EOS banned, so every run makes exactly `--new` tokens) and no forced BOS/EOS.
Timing: one warm-up each, then `repeats` pairs, the order alternating in each pair; the minimum of
each side. The reference under torch.no_grad() (generate's own) with torch.set_num_threads(threads);
Folio's bench_generate with the same thread count (OMP_WAIT_POLICY etc. from the caller). Token lists
compared; beam scores compared as sums of log-probabilities (v4.36 divides by the new tokens, Folio's
v4.8 semantics by the length with the start token). Also measured in the same run, for the floor of
one decoding step: the encoder alone on both sides, and the memory bandwidth of one thread (a copy of a
512 MiB tensor, bytes read + written per second). With --before-bin, a bench_generate built from an earlier commit
is a third side of every round (before / after, tokens and the score printed by each). Prints one JSON
line per search.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hfarch_reference import PACKAGING, randomize, write_safetensors  # noqa: E402  (the same recipe, writer, packaging shim)

SHIMS = {
    "__init__.py": '__version__ = "4.36.2"\nPreTrainedTokenizer = object  # configuration_bart imports it for type hints\n',
    "models/__init__.py": "",
    "models/bart/__init__.py": "",
    "models/auto/__init__.py": """
MODEL_FOR_CAUSAL_IMAGE_MODELING_MAPPING = {}
MODEL_FOR_CAUSAL_LM_MAPPING = {}
MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING = {}
MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING = {}
MODEL_FOR_VISION_2_SEQ_MAPPING = {}
""",
    "integrations/__init__.py": "",
    "integrations/deepspeed.py": "def is_deepspeed_zero3_enabled():\n    return False\n",
    "onnx/__init__.py": """
class OnnxConfig:
    pass


class OnnxConfigWithPast(OnnxConfig):
    pass


class OnnxSeq2SeqConfigWithPast(OnnxConfigWithPast):
    pass
""",
    "onnx/utils.py": "def compute_effective_axis_dimension(*args, **kwargs):\n    raise NotImplementedError('no ONNX export here')\n",
    "generation/__init__.py": "",
    "utils/logging.py": """
import logging as _logging


def get_logger(name=None):
    logger = _logging.getLogger(name)
    if not hasattr(logger, "warning_once"):
        logger.warning_once = logger.warning
    return logger
""",
    "utils/__init__.py": '''
import dataclasses
import enum
from collections import OrderedDict

from . import logging


def _identity_decorator(*args, **kwargs):
    def wrap(fn):
        return fn
    return wrap


add_start_docstrings = _identity_decorator
add_end_docstrings = _identity_decorator
add_start_docstrings_to_model_forward = _identity_decorator
replace_return_docstrings = _identity_decorator
add_code_sample_docstrings = _identity_decorator
GENERATION_CONFIG_NAME = "generation_config.json"


def is_flash_attn_2_available():
    return False


def is_flash_attn_greater_or_equal_2_10():
    return False


def is_accelerate_available():
    return False


def is_torch_available():
    return True


def is_remote_url(url):
    return False


def _offline(*args, **kwargs):
    raise NotImplementedError("the bench loads and saves nothing through the hub")


cached_file = download_url = extract_commit_hash = _offline


class PushToHubMixin:
    pass


class ExplicitEnum(str, enum.Enum):
    pass


class TensorType(ExplicitEnum):
    PYTORCH = "pt"


class ModelOutput(OrderedDict):
    """The output dataclasses' base: the set fields in order, by name, by index and as attributes."""

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None:
                OrderedDict.__setitem__(self, f.name, value)

    def __getitem__(self, key):
        if isinstance(key, str):
            return OrderedDict.__getitem__(self, key)
        return self.to_tuple()[key]

    def __setitem__(self, key, value):
        OrderedDict.__setitem__(self, key, value)
        object.__setattr__(self, key, value)

    def __setattr__(self, name, value):
        if name in self.keys() and value is not None:
            OrderedDict.__setitem__(self, name, value)
        object.__setattr__(self, name, value)

    def to_tuple(self):
        return tuple(self[k] for k in self.keys())
''',
    "configuration_utils.py": '''
class PretrainedConfig:
    model_type = ""
    attribute_map = {}

    def __init__(self, **kwargs):
        self._attn_implementation = kwargs.pop("attn_implementation", "eager")
        for key, default in (("return_dict", True), ("output_hidden_states", False), ("output_attentions", False),
                             ("torchscript", False), ("pruned_heads", {}), ("tie_word_embeddings", True),
                             ("is_encoder_decoder", False), ("is_decoder", False), ("add_cross_attention", False),
                             ("chunk_size_feed_forward", 0), ("problem_type", None), ("pad_token_id", None),
                             ("bos_token_id", None), ("eos_token_id", None), ("decoder_start_token_id", None),
                             ("forced_bos_token_id", None), ("forced_eos_token_id", None)):
            setattr(self, key, kwargs.pop(key, default))
        num_labels = kwargs.pop("num_labels", 2)
        self.id2label = {i: "LABEL_%d" % i for i in range(num_labels)}
        for key, value in kwargs.items():
            setattr(self, key, value)

    def __setattr__(self, key, value):
        object.__setattr__(self, type(self).attribute_map.get(key, key), value)

    def __getattr__(self, key):  # only for names not set: BART's aliases
        mapped = type(self).attribute_map.get(key)
        if mapped is None:
            raise AttributeError(key)
        return getattr(self, mapped)

    @property
    def use_return_dict(self):
        return self.return_dict and not self.torchscript

    @property
    def num_labels(self):
        return len(self.id2label)

    def to_dict(self):
        out = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        out["model_type"] = self.model_type
        out["id2label"] = {str(k): v for k, v in self.id2label.items()}
        return out
''',
    "modeling_utils.py": '''
import torch
from torch import nn

from .generation.configuration_utils import GenerationConfig
from .generation.utils import GenerationMixin


class PreTrainedModel(nn.Module, GenerationMixin):
    config_class = None
    base_model_prefix = ""
    main_input_name = "input_ids"
    _supports_cache_class = False

    def __init__(self, config, *inputs, **kwargs):
        super().__init__()
        self.config = config
        self.generation_config = GenerationConfig(
            bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id, pad_token_id=config.pad_token_id,
            decoder_start_token_id=config.decoder_start_token_id)

    def post_init(self):
        # Weights are set by the bench; only the LM head shares the token table (tie_word_embeddings).
        out, inp = self.get_output_embeddings(), self.get_input_embeddings()
        if out is not None and inp is not None:
            out.weight = inp.weight

    def get_input_embeddings(self):
        base = getattr(self, self.base_model_prefix, self)
        return base.get_input_embeddings() if base is not self else None

    def get_output_embeddings(self):
        return None

    def can_generate(self):
        return True

    def warn_if_padding_and_no_attention_mask(self, input_ids, attention_mask):
        pass

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype
''',
}

LINKED = ["activations.py", "modeling_outputs.py", "modeling_attn_mask_utils.py", "cache_utils.py",
          "models/bart/modeling_bart.py", "models/bart/configuration_bart.py"] + [
    "generation/%s.py" % m for m in ("utils", "beam_search", "beam_constraints", "logits_process", "stopping_criteria",
                                     "configuration_utils", "candidate_generator", "streamers")]


def build_package(hf_src, root):
    """Writes the shims under root/ and links the reference's unchanged files beside them."""
    pkg = os.path.join(root, "transformers")
    for rel, text in [(os.path.join("transformers", r), t) for r, t in SHIMS.items()] + list(PACKAGING.items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel in LINKED:
        src = os.path.join(hf_src, rel)
        if not os.path.isfile(src):
            sys.exit("hfgenerate_reference.py: %s is missing (--hf-src must be transformers v4.36's src/transformers)" % src)
        dst = os.path.join(pkg, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            os.remove(dst)
        os.symlink(os.path.abspath(src), dst)
    sys.path.insert(0, root)


class Folio:
    """bench_generate driven line by line."""

    def __init__(self, binary, folder, inputs, threads):
        self.p = subprocess.Popen([binary, folder, inputs, str(threads)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().strip()
        if not line.startswith("ready"):
            sys.exit("bench_generate: " + line)

    def run(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().strip()
        if not line.startswith("seconds"):
            sys.exit("bench_generate: %s -> %s" % (command, line))
        f = line.split()
        return float(f[1]), float(f[3]), [int(t) for t in f[5].split(",")]

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        self.p.wait()


def bandwidth_gbs(torch, repeats=3):
    src = torch.ones(128 << 20)  # 512 MiB
    dst = torch.empty_like(src)
    best = 1e30
    for _ in range(repeats):
        t0 = time.perf_counter()
        dst.copy_(src)
        best = min(best, time.perf_counter() - t0)
    return 2 * src.numel() * 4 / best / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hf-src", required=True)
    ap.add_argument("--bench-bin", required=True)
    ap.add_argument("--work", default="/tmp/hfgen")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--source", type=int, default=1024)
    ap.add_argument("--new", type=int, default=64)
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--ngram", type=int, default=3)
    ap.add_argument("--modes", default="greedy,beam")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--before-bin", default="", help="a bench_generate built from an earlier commit: a third side in every pair")
    a = ap.parse_args()

    import torch
    torch.set_num_threads(a.threads)
    build_package(a.hf_src, os.path.join(a.work, "pkg"))
    from transformers.generation.configuration_utils import GenerationConfig
    from transformers.models.bart.configuration_bart import BartConfig
    from transformers.models.bart.modeling_bart import BartForConditionalGeneration

    torch.manual_seed(a.seed)
    config = BartConfig(vocab_size=50265, d_model=768, encoder_layers=6, decoder_layers=6, encoder_attention_heads=12,
                        decoder_attention_heads=12, encoder_ffn_dim=3072, decoder_ffn_dim=3072,
                        max_position_embeddings=1024, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0)
    model = BartForConditionalGeneration(config)
    randomize(model, torch, a.seed)
    model.eval()

    folder = os.path.join(a.work, "bart-base")
    os.makedirs(folder, exist_ok=True)
    aliases = {"lm_head.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"}
    write_safetensors(os.path.join(folder, "model.safetensors"),
                      {k: v.detach().numpy() for k, v in model.state_dict().items() if k not in aliases})
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config.to_dict(), f, indent=1)
    rng = np.random.default_rng(a.seed)
    ids = rng.integers(5, config.vocab_size, size=(1, a.source), dtype=np.int64)
    ids[0, 0], ids[0, -1] = 0, 2
    inputs = os.path.join(a.work, "inputs.safetensors")
    write_safetensors(inputs, {"input_ids": ids})
    input_ids = torch.from_numpy(ids)
    mask = torch.ones_like(input_ids)
    max_length = a.new + 1

    def gen_config(beams, ngram, scores):
        return GenerationConfig(max_length=max_length, min_length=max_length, num_beams=beams, no_repeat_ngram_size=ngram,
                                early_stopping=False, length_penalty=1.0, do_sample=False, use_cache=True,
                                decoder_start_token_id=2, bos_token_id=0, eos_token_id=2, pad_token_id=1,
                                forced_bos_token_id=None, forced_eos_token_id=None,
                                return_dict_in_generate=True, output_scores=scores)

    def reference(beams, ngram, scores=False):
        t0 = time.perf_counter()
        out = model.generate(input_ids, attention_mask=mask, generation_config=gen_config(beams, ngram, scores))
        t = time.perf_counter() - t0
        score = float(out.sequences_scores[0]) * a.new if scores and beams > 1 else None
        return t, score, out.sequences[0].tolist()

    folio = Folio(a.bench_bin, folder, inputs, a.threads)
    before = Folio(a.before_bin, folder, inputs, a.threads) if a.before_bin else None
    # The floor's parts, measured here: the encoder alone and one thread's memory bandwidth.
    with torch.no_grad():
        enc_ref = min(_timed(lambda: model.get_encoder()(input_ids=input_ids, attention_mask=mask)) for _ in range(2))
    enc_folio = min(folio.run("encode")[0] for _ in range(2))
    bw = bandwidth_gbs(torch)
    dec_params = sum(p.numel() for n, p in model.named_parameters() if n.startswith("model.decoder.layers."))
    head_params = config.vocab_size * config.d_model
    cross_kv = config.decoder_layers * 2 * a.source * config.d_model  # per source row, read every step

    for mode in a.modes.split(","):
        beams, ngram = (1, 0) if mode == "greedy" else (a.beams, a.ngram)
        cmd = "greedy %d 0" % a.new if beams == 1 else "beam %d %d %d" % (beams, a.new, ngram)
        _, ref_score, ref_tokens = reference(beams, ngram, scores=beams > 1)  # warm-up, with the scores
        _, folio_score, folio_tokens = folio.run(cmd)
        before_score, before_tokens = before.run(cmd)[1:] if before else (None, None)
        ref_times, folio_times, before_times, same_ref, same_folio = [], [], [], True, True
        for i in range(a.repeats):
            order = (0, 1, 2) if i % 2 == 0 else (2, 1, 0)
            for side in order:
                if side == 2:
                    if before:
                        before_times.append(before.run(cmd)[0])
                    continue
                if side == 0:
                    t, _, toks = reference(beams, ngram)
                    ref_times.append(t)
                    same_ref = same_ref and toks == ref_tokens
                else:
                    t, _, toks = folio.run(cmd)
                    folio_times.append(t)
                    same_folio = same_folio and toks == folio_tokens
        folio_sum = folio_score * max_length if beams > 1 else None
        step_bytes = 4 * (dec_params + head_params + cross_kv)
        print(json.dumps({
            "mode": mode, "beams": beams, "ngram": ngram, "source": a.source, "new_tokens": a.new,
            "threads": a.threads, "repeats": a.repeats,
            "reference_min_s": min(ref_times), "folio_min_s": min(folio_times),
            "speedup": min(ref_times) / min(folio_times),
            "same_tokens": folio_tokens == ref_tokens and same_ref and same_folio,
            "reference_sum_logprobs": ref_score, "folio_sum_logprobs": folio_sum,
            "before_min_s": min(before_times) if before else None,
            "before_same_tokens": before_tokens == folio_tokens if before else None,
            "before_score": before_score, "folio_score": folio_score,
            "encoder_reference_s": enc_ref, "encoder_folio_s": enc_folio,
            "bandwidth_gbs": bw, "step_bytes": step_bytes,
            "step_floor_s": step_bytes / (bw * 1e9),
            "load_avg": [float(x) for x in open("/proc/loadavg").read().split()[:3]],
        }), flush=True)
    folio.close()
    if before:
        before.close()


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
