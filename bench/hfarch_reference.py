#!/usr/bin/env python3
"""Folio's forward against the reference Python implementation (Hugging Face transformers v4.36's
modeling files, run unchanged), paired and alternating, on the same random base-size weights and the
same 512-token input. Driven by bench/bench_hfarch.sh; one architecture per call:

  hfarch_reference.py --hf-src DIR --arch lilt|layoutlmv2|layoutlmv3|markuplm --bench-bin build/bench/bench_hfarch
                      [--work /tmp/hfarch] [--repeats 5] [--threads 1] [--tokens 512]

--hf-src is a transformers checkout's `src/transformers` folder at v4.36 (upstream commit
815ea8e8a23a85482225d371f7218cacc3e99e5b, as ../shared/fixtures/parity-new/*/README.md name it), e.g.
  git clone https://github.com/huggingface/transformers && git -C transformers checkout v4.36.2
  --hf-src transformers/src/transformers
This script fetches nothing and contains no Hugging Face code. From that folder it links, unchanged:
models/<arch>/modeling_<arch>.py, models/<arch>/configuration_<arch>.py, activations.py and
modeling_outputs.py; the library internals they import are replaced by the small shims written
below (our own code, no model math): stdlib logging, identity docstring decorators, availability
flags (detectron2 off), a PretrainedConfig holding its keyword arguments with the library's defaults,
a PreTrainedModel (= nn.Module + config, the 2-D extended attention mask (1 - m) * finfo.min, no head
mask, no padding warning), apply_chunking_to_forward without chunking, packaging.version.parse, and an
empty OnnxConfig (LayoutLMv3's configuration file imports it). No transformers package is needed.

Per architecture (hidden 768, 12 layers, 12 heads, intermediate 3072):
  lilt       LiltForTokenClassification, channel_shrink_ratio 4, RoBERTa sizes (vocab 50265, 514
             positions, pad 1), 7 labels; compared: logits.
  markuplm   MarkupLMForTokenClassification, RoBERTa sizes, xpath depth 50; compared: logits.
  layoutlmv3 LayoutLMv3ForTokenClassification, RoBERTa sizes, text + layout (no pixel_values: the
             reference skips the patch embedding; its 1-D and 2-D relative biases run); compared: logits.
  layoutlmv2 text + layout only: the reference's LayoutLMv2Embeddings (through
             LayoutLMv2Model._calc_text_embeddings, called unbound) and LayoutLMv2Encoder (1-D and 2-D
             relative biases, fast_qkv); the visual backbone (detectron2 ResNeXt-FPN) is not part of
             this run, so Folio gets a folder without visual weights (it runs text + layout and says
             so). Compared: last_hidden_state.
Weights: seeded normals (Linear N/sqrt(fan_in), Embedding 0.5 N, LayerNorm 1 + 0.1 N, other 0.1 N),
saved once as safetensors with config.json; the input (512 tokens, all real, page-like boxes) too.
Timing: one warm-up each, then `repeats` pairs, the order alternating in each pair; the minimum of
each side. The reference runs in eval mode under torch.no_grad() with torch.set_num_threads(threads);
Folio's bench_hfarch with the same thread count (OMP_WAIT_POLICY etc. come from the caller's
environment). Prints one JSON line.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

import numpy as np

SHIMS = {
    "__init__.py": "",
    "models/__init__.py": "",
    "utils/__init__.py": '''
import logging as _logging
from collections import OrderedDict


class _Logging:
    @staticmethod
    def get_logger(name=None):
        return _logging.getLogger(name)


logging = _Logging()


def _identity_decorator(*args, **kwargs):
    def wrap(fn):
        return fn
    return wrap


add_start_docstrings = _identity_decorator
add_start_docstrings_to_model_forward = _identity_decorator
replace_return_docstrings = _identity_decorator
add_code_sample_docstrings = _identity_decorator


def is_detectron2_available():
    return False


def requires_backends(obj, backends):
    pass


class ModelOutput(OrderedDict):
    """Only a base for the output dataclasses: the bench calls the models with return_dict=False."""
''',
    "file_utils.py": "from .utils import add_start_docstrings, add_start_docstrings_to_model_forward, replace_return_docstrings\n",
    "configuration_utils.py": '''
class PretrainedConfig:
    model_type = ""

    def __init__(self, **kwargs):
        self.return_dict = kwargs.pop("return_dict", True)
        self.output_hidden_states = kwargs.pop("output_hidden_states", False)
        self.output_attentions = kwargs.pop("output_attentions", False)
        self.torchscript = kwargs.pop("torchscript", False)
        self.pruned_heads = kwargs.pop("pruned_heads", {})
        self.is_decoder = kwargs.pop("is_decoder", False)
        self.add_cross_attention = kwargs.pop("add_cross_attention", False)
        self.chunk_size_feed_forward = kwargs.pop("chunk_size_feed_forward", 0)
        self.problem_type = kwargs.pop("problem_type", None)
        num_labels = kwargs.pop("num_labels", 2)
        id2label = kwargs.pop("id2label", None) or {i: "LABEL_%d" % i for i in range(num_labels)}
        self.id2label = {int(k): v for k, v in id2label.items()}
        self.label2id = {v: k for k, v in self.id2label.items()}
        for key in ("pad_token_id", "bos_token_id", "eos_token_id"):
            setattr(self, key, kwargs.pop(key, None))
        for key, value in kwargs.items():
            setattr(self, key, value)

    @property
    def use_return_dict(self):
        return self.return_dict and not self.torchscript

    @property
    def num_labels(self):
        return len(self.id2label)
''',
    "pytorch_utils.py": '''
def apply_chunking_to_forward(forward_fn, chunk_size, chunk_dim, *input_tensors):
    if chunk_size > 0:
        raise NotImplementedError("the bench runs without feed-forward chunking")
    return forward_fn(*input_tensors)


def find_pruneable_heads_and_indices(*args, **kwargs):
    raise NotImplementedError("head pruning is not part of the bench")


def prune_linear_layer(*args, **kwargs):
    raise NotImplementedError("head pruning is not part of the bench")
''',
    "modeling_utils.py": '''
import torch
from torch import nn

from .pytorch_utils import apply_chunking_to_forward, find_pruneable_heads_and_indices, prune_linear_layer


class PreTrainedModel(nn.Module):
    config_class = None
    base_model_prefix = ""

    def __init__(self, config, *inputs, **kwargs):
        super().__init__()
        self.config = config

    def post_init(self):
        pass  # the bench sets every parameter itself

    def init_weights(self):  # LayoutLMv3Model's older name for post_init
        pass

    def warn_if_padding_and_no_attention_mask(self, input_ids, attention_mask):
        pass  # a warning only; the bench always passes the mask

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def get_extended_attention_mask(self, attention_mask, input_shape, device=None, dtype=None):
        dtype = dtype or self.dtype
        if attention_mask.dim() != 2:
            raise NotImplementedError("the bench passes [B, T] masks")
        extended = attention_mask[:, None, None, :].to(dtype=dtype)
        return (1.0 - extended) * torch.finfo(dtype).min

    def get_head_mask(self, head_mask, num_hidden_layers, is_attention_chunked=False):
        if head_mask is not None:
            raise NotImplementedError("the bench runs without head masks")
        return [None] * num_hidden_layers
''',
}

# LayoutLMv3's configuration file imports the ONNX export helpers (never used here).
SHIMS["onnx/__init__.py"] = "class OnnxConfig:\n    pass\n"
SHIMS["onnx/utils.py"] = "def compute_effective_axis_dimension(*args, **kwargs):\n    raise NotImplementedError('no ONNX export here')\n"

PACKAGING = {
    "packaging/__init__.py": "",
    "packaging/version.py": '''
def parse(text):
    parts = []
    for piece in str(text).split("+")[0].split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
''',
}

LINKED = ["activations.py", "modeling_outputs.py"]


def build_package(hf_src, arch, root):
    """Writes the shims under root/ and links the reference's unchanged files beside them."""
    pkg = os.path.join(root, "transformers")
    for rel, text in list(SHIMS.items()) + [("models/%s/__init__.py" % arch, "")]:
        path = os.path.join(pkg, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel, text in PACKAGING.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel in LINKED + ["models/%s/modeling_%s.py" % (arch, arch), "models/%s/configuration_%s.py" % (arch, arch)]:
        src = os.path.join(hf_src, rel)
        if not os.path.isfile(src):
            sys.exit("hfarch_reference.py: %s is missing (--hf-src must be transformers v4.36's src/transformers)" % src)
        dst = os.path.join(pkg, rel)
        if os.path.lexists(dst):
            os.remove(dst)
        os.symlink(os.path.abspath(src), dst)
    sys.path.insert(0, root)


# --- safetensors (the format is a JSON header and raw little-endian data) -----------------------
DTYPES = {"float32": "F32", "int64": "I64"}
NP = {"F32": np.float32, "I64": np.int64}


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        data = a.tobytes()
        header[name] = {"dtype": DTYPES[str(a.dtype)], "shape": list(a.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, h in header.items():
        if name == "__metadata__" or h["dtype"] not in NP:
            continue
        b, e = h["data_offsets"]
        out[name] = np.frombuffer(data[b:e], dtype=NP[h["dtype"]]).reshape(h["shape"])
    return out


# --- models ---------------------------------------------------------------------------------------
BASE = dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072)


def make_model(arch, torch):
    nn = torch.nn
    if arch == "lilt":
        from transformers.models.lilt.configuration_lilt import LiltConfig
        from transformers.models.lilt.modeling_lilt import LiltForTokenClassification
        config = LiltConfig(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, layer_norm_eps=1e-5,
                            pad_token_id=1, channel_shrink_ratio=4, num_labels=7, **BASE)
        return config, LiltForTokenClassification(config), "logits"
    if arch == "markuplm":
        from transformers.models.markuplm.configuration_markuplm import MarkupLMConfig
        from transformers.models.markuplm.modeling_markuplm import MarkupLMForTokenClassification
        config = MarkupLMConfig(vocab_size=50267, max_position_embeddings=514, type_vocab_size=1, layer_norm_eps=1e-5,
                                pad_token_id=1, num_labels=7, **BASE)
        return config, MarkupLMForTokenClassification(config), "logits"
    if arch == "layoutlmv3":
        from transformers.models.layoutlmv3.configuration_layoutlmv3 import LayoutLMv3Config
        from transformers.models.layoutlmv3.modeling_layoutlmv3 import LayoutLMv3ForTokenClassification
        config = LayoutLMv3Config(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, layer_norm_eps=1e-5,
                                  pad_token_id=1, num_labels=7, **BASE)
        return config, LayoutLMv3ForTokenClassification(config), "logits"
    if arch == "layoutlmv2":
        from transformers.models.layoutlmv2.configuration_layoutlmv2 import LayoutLMv2Config
        from transformers.models.layoutlmv2 import modeling_layoutlmv2 as m
        config = LayoutLMv2Config(**BASE)

        class TextLayout(nn.Module):
            """LayoutLMv2Model's text + layout part: its embeddings and encoder, called as it calls them."""

            def __init__(self, config):
                super().__init__()
                self.config = config
                self.embeddings = m.LayoutLMv2Embeddings(config)
                self.encoder = m.LayoutLMv2Encoder(config)

            def forward(self, input_ids, bbox, attention_mask, position_ids):
                emb = m.LayoutLMv2Model._calc_text_embeddings(self, input_ids, bbox, position_ids, None)
                ext = attention_mask.unsqueeze(1).unsqueeze(2).to(dtype=emb.dtype)
                ext = (1.0 - ext) * torch.finfo(emb.dtype).min
                return self.encoder(emb, ext, bbox=bbox, position_ids=position_ids,
                                    head_mask=[None] * config.num_hidden_layers, return_dict=False)

        return config, TextLayout(config), "last_hidden_state"
    sys.exit("unknown --arch " + arch)


def randomize(model, torch, seed):
    g = torch.Generator().manual_seed(seed)
    nn = torch.nn
    done = set()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.Linear):
                module.weight.copy_(torch.randn(module.weight.shape, generator=g) / module.weight.shape[1] ** 0.5)
                done.add(id(module.weight))
            elif isinstance(module, nn.Embedding):
                module.weight.copy_(0.5 * torch.randn(module.weight.shape, generator=g))
                done.add(id(module.weight))
            elif isinstance(module, nn.LayerNorm):
                module.weight.copy_(1 + 0.1 * torch.randn(module.weight.shape, generator=g))
                done.add(id(module.weight))
        for p in model.parameters():
            if id(p) not in done:
                p.copy_(0.1 * torch.randn(p.shape, generator=g))


def make_inputs(arch, config, tokens, seed):
    rng = np.random.default_rng(seed)
    t = tokens
    ids = rng.integers(5, config.vocab_size, size=(1, t), dtype=np.int64)
    ids[0, 0], ids[0, -1] = (0, 2) if arch != "layoutlmv2" else (101, 102)
    inputs = {"input_ids": ids, "attention_mask": np.ones((1, t), dtype=np.int64)}
    if arch in ("lilt", "layoutlmv2", "layoutlmv3"):
        # Page-like boxes: lines of words, 0..1000, x0 <= x1, y0 <= y1; specials as the tokenizers set them.
        boxes = np.zeros((1, t, 4), dtype=np.int64)
        for i in range(1, t - 1):
            line, col = divmod(i - 1, 12)
            x0 = 20 + col * 80 + int(rng.integers(0, 10))
            y0 = 10 + (line * 23) % 960
            boxes[0, i] = [x0, y0, min(1000, x0 + int(rng.integers(20, 75))), min(1000, y0 + 18)]
        boxes[0, -1] = [1000, 1000, 1000, 1000]
        inputs["bbox"] = boxes
    if arch == "layoutlmv2":
        inputs["token_type_ids"] = np.zeros((1, t), dtype=np.int64)
    if arch == "markuplm":
        depth = config.max_depth
        tags = np.full((1, t, depth), config.tag_pad_id, dtype=np.int64)
        subs = np.full((1, t, depth), config.subs_pad_id, dtype=np.int64)
        for i in range(1, t - 1):
            d = int(rng.integers(3, 12))
            tags[0, i, :d] = rng.integers(0, config.tag_pad_id, size=d)
            subs[0, i, :d] = rng.integers(0, 20, size=d)
        inputs["xpath_tags_seq"], inputs["xpath_subs_seq"] = tags, subs
        inputs["token_type_ids"] = np.zeros((1, t), dtype=np.int64)
    return inputs


def config_json(config, arch):
    out = {"model_type": arch}
    for k, v in vars(config).items():
        try:
            json.dumps(v)
        except TypeError:
            continue
        out[k] = v
    out["id2label"] = {str(k): v for k, v in config.id2label.items()}
    out["label2id"] = {v: k for k, v in config.id2label.items()}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hf-src", required=True)
    ap.add_argument("--arch", required=True, choices=["lilt", "layoutlmv2", "layoutlmv3", "markuplm"])
    ap.add_argument("--bench-bin", required=True)
    ap.add_argument("--work", default="/tmp/hfarch")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--tokens", type=int, default=512)
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--int8", action="store_true",
                    help="also time Folio's dynamic-int8 copy (bench_hfarch int8 / run8) as a third side of every round")
    ap.add_argument("--flush-denormal", action="store_true",
                    help="torch.set_flush_denormal(True) in the reference too (Folio flushes denormals, configureThreads)")
    a = ap.parse_args()

    import torch
    torch.set_num_threads(a.threads)
    if a.flush_denormal:
        torch.set_flush_denormal(True)
    root = os.path.join(a.work, "pkg-" + a.arch)
    build_package(a.hf_src, a.arch, root)
    torch.manual_seed(a.seed)
    config, model, output_name = make_model(a.arch, torch)
    randomize(model, torch, a.seed)
    model.eval()

    folder = os.path.join(a.work, a.arch)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config_json(config, a.arch), f, indent=1)
    state = {k: v.detach().contiguous().numpy() for k, v in model.state_dict().items() if v.dtype == torch.float32}
    write_safetensors(os.path.join(folder, "model.safetensors"), state)
    inputs = make_inputs(a.arch, config, a.tokens, a.seed)
    inputs_path = os.path.join(folder, "inputs.safetensors")
    write_safetensors(inputs_path, inputs)
    feed = {k: torch.from_numpy(v) for k, v in inputs.items()}
    if a.arch == "layoutlmv2":
        feed = {"input_ids": feed["input_ids"], "bbox": feed["bbox"], "attention_mask": feed["attention_mask"],
                "position_ids": torch.arange(a.tokens).unsqueeze(0)}
    else:
        feed["return_dict"] = False

    def reference():
        with torch.no_grad():
            t0 = time.perf_counter()
            out = model(**feed)
            return time.perf_counter() - t0, out[0]

    folio = subprocess.Popen([a.bench_bin, folder, inputs_path, str(a.threads)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)

    def ask(line):
        folio.stdin.write(line + "\n")
        folio.stdin.flush()
        reply = folio.stdout.readline().strip()
        if not reply or reply.startswith("error"):
            sys.exit("bench_hfarch: " + (reply or "no reply"))
        return reply

    ready = folio.stdout.readline().strip()
    if not ready.startswith("ready"):
        sys.exit("bench_hfarch: " + ready)

    def folio_run():
        return float(ask("run").split()[1])

    def int8_run():
        return float(ask("run8").split()[1])

    ref_t, folio_t, int8_t = [], [], []
    _, ref_out = reference()  # warm-up round
    folio_run()
    sides = [lambda: ref_t.append(reference()[0]), lambda: folio_t.append(folio_run())]
    if a.int8:
        if ask("int8") != "int8 ready":
            sys.exit("bench_hfarch: int8 copy not ready")
        int8_run()
        sides.append(lambda: int8_t.append(int8_run()))
    for i in range(a.repeats):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            side()
    int8_delta = None
    if a.int8:  # the int8 copy's outputs first (the last forward is what `save` writes), then float32's
        int8_path = os.path.join(folder, "folio_int8_outputs.safetensors")
        ask("save " + int8_path)
        mine8 = read_safetensors(int8_path)[output_name]
        int8_delta = float(np.abs(mine8.reshape(ref_out.shape) - ref_out.numpy()).max())
        folio_run()
    out_path = os.path.join(folder, "folio_outputs.safetensors")
    ask("save " + out_path)
    folio.stdin.write("quit\n")
    folio.stdin.close()
    folio.wait()
    mine = read_safetensors(out_path)[output_name]
    ref = ref_out.numpy()
    delta = float(np.abs(mine.reshape(ref.shape) - ref).max()) if mine.size == ref.size else float("nan")
    print(json.dumps({
        "arch": a.arch, "tokens": a.tokens, "threads": a.threads, "repeats": a.repeats,
        "params_m": round(sum(p.numel() for p in model.parameters()) / 1e6, 1),
        "reference_min_s": min(ref_t), "folio_min_s": min(folio_t), "speedup": min(ref_t) / min(folio_t),
        "reference_s": ref_t, "folio_s": folio_t, "compared": output_name, "max_abs_delta": delta,
        "load_avg": os.getloadavg(), "reference_flush_denormal": a.flush_denormal,
        "folio_int8_min_s": min(int8_t) if int8_t else None,
        "speedup_int8": min(ref_t) / min(int8_t) if int8_t else None,
        "int8_max_abs_delta": int8_delta,
        "max_abs_reference": float(np.abs(ref_out.numpy()).max()),
        "malloc_env": {k: v for k, v in os.environ.items() if k.startswith("MALLOC_") or k == "GLIBC_TUNABLES"},
    }))


if __name__ == "__main__":
    main()
