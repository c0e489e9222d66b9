#!/usr/bin/env python3
"""One Hugging Face Trainer fine-tuning step, Folio (bench_hf_finetune_step serve) against the reference
Python step, paired and alternating, on the same seeded weights and the same batch (issue 46).

  hf_finetune_step_reference.py --hf-src DIR --arch layoutlmv3|lilt --bench-bin build/bench/bench_hf_finetune_step
                                [--work /tmp/folio-hf-ft-bench] [--repeats 3] [--threads 2] [--layers 12]

Folio's side runs in its own process (`bench_hf_finetune_step serve ARCH THREADS WORK LAYERS`): it writes
the checkpoint folder (base sizes: hidden 768, 12 heads, intermediate 3072, vocab 50265, seeded
N(0, 0.02) weights, 7 labels, dropout 0) and the batch (2 x 512 tokens, LayoutLMv3 also 2 x 224x224
images) as <work>/<arch>[-L<layers>]/batch.safetensors, and answers "step" / "rss" / "quit". The
reference side runs in this process: the token classifier of the reference's modeling file, built from
--hf-src (a transformers `src/transformers` folder: models/<arch>/modeling_<arch>.py and
configuration_<arch>.py and activations.py are loaded unchanged; the library internals they import are
the small shims of bench/hfarch_reference.py plus the few names newer files import, written below —
no model math), loaded with Folio's folder's weights (every tensor by name, strict) and stepped as the
Trainer steps: train mode, forward with labels (mean cross-entropy, -100 ignored), backward,
clip_grad_norm_(1.0), torch.optim.AdamW (lr 5e-5, betas 0.9/0.999, eps 1e-8) with the Trainer's two
groups (weight decay 0.01 except LayerNorm parameters and names containing "bias"), the linear
schedule with 1 warm-up step over 100 (so the first step has learning rate 0, as on Folio's side),
model.zero_grad(). Same thread count on both sides (torch.set_num_threads / configureThreads).

Timing: one warm-up step each, then `repeats` pairs, the order alternating in each pair; the minimum of
each side. Peak resident memory per side over the steps (both processes' VmHWM reset after loading,
read after the last step), and each process's ru_maxrss with the loading. Prints one JSON line (also the first steps' losses and gradient norms of both sides).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hfarch_reference as hr  # noqa: E402  (shims, safetensors reader)

EXTRA_SHIMS = {
    # Names newer modeling / configuration files import (auto_docstring, torch_int, PreTrainedConfig,
    # huggingface_hub's strict dataclass decorator) and the output containers (unused: return_dict=False).
    "utils/__init__.py": hr.SHIMS["utils/__init__.py"] + '''

def auto_docstring(obj=None, **kwargs):
    if obj is None:
        return lambda o: o
    return obj


def torch_int(x):
    return int(x)
''',
    "configuration_utils.py": hr.SHIMS["configuration_utils.py"] + '''

class PreTrainedConfig(PretrainedConfig):
    """The class-level annotated defaults of a newer configuration file, then the keyword arguments."""

    def __init__(self, **kwargs):
        for cls in reversed(type(self).__mro__):
            for key in getattr(cls, "__annotations__", {}):
                if hasattr(cls, key):
                    setattr(self, key, getattr(cls, key))
        for key in ("pad_token_id", "bos_token_id", "eos_token_id"):
            kwargs.setdefault(key, getattr(self, key, None))
        super().__init__(**kwargs)
''',
    "modeling_outputs.py": '''
class _Output(dict):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.__dict__.update(kwargs)


class BaseModelOutput(_Output):
    pass


class BaseModelOutputWithPooling(_Output):
    pass


class QuestionAnsweringModelOutput(_Output):
    pass


class SequenceClassifierOutput(_Output):
    pass


class TokenClassifierOutput(_Output):
    pass
''',
}
HUB = {"huggingface_hub/__init__.py": "", "huggingface_hub/dataclasses.py": "def strict(cls=None, **kwargs):\n    return cls if cls is not None else (lambda c: c)\n"}


def build_package(hf_src, arch, root):
    pkg = os.path.join(root, "transformers")
    shims = dict(hr.SHIMS)
    shims.update(EXTRA_SHIMS)
    for rel, text in list(shims.items()) + [("models/%s/__init__.py" % arch, "")]:
        path = os.path.join(pkg, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel, text in list(hr.PACKAGING.items()) + list(HUB.items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel in ["activations.py", "models/%s/modeling_%s.py" % (arch, arch), "models/%s/configuration_%s.py" % (arch, arch)]:
        src = os.path.join(hf_src, rel)
        if not os.path.isfile(src):
            sys.exit("hf_finetune_step_reference.py: %s is missing (--hf-src is a transformers src/transformers folder)" % src)
        dst = os.path.join(pkg, rel)
        if os.path.lexists(dst):
            os.remove(dst)
        os.symlink(os.path.abspath(src), dst)
    sys.path.insert(0, root)


def make_model(arch, folio_config):
    c = folio_config
    common = dict(vocab_size=c["vocab_size"], hidden_size=c["hidden_size"], num_hidden_layers=c["num_hidden_layers"],
                  num_attention_heads=c["num_attention_heads"], intermediate_size=c["intermediate_size"],
                  max_position_embeddings=c["max_position_embeddings"], type_vocab_size=c["type_vocab_size"],
                  pad_token_id=c["pad_token_id"], layer_norm_eps=c["layer_norm_eps"], hidden_act=c["hidden_act"],
                  hidden_dropout_prob=c["hidden_dropout_prob"], attention_probs_dropout_prob=c["attention_probs_dropout_prob"],
                  max_2d_position_embeddings=c["max_2d_position_embeddings"], id2label=c["id2label"])
    if arch == "lilt":
        from transformers.models.lilt.configuration_lilt import LiltConfig
        from transformers.models.lilt.modeling_lilt import LiltForTokenClassification
        config = LiltConfig(channel_shrink_ratio=c["channel_shrink_ratio"], position_embedding_type="absolute", **common)
        return LiltForTokenClassification(config)
    from transformers.models.layoutlmv3.configuration_layoutlmv3 import LayoutLMv3Config
    from transformers.models.layoutlmv3.modeling_layoutlmv3 import LayoutLMv3ForTokenClassification
    keys = ("coordinate_size", "shape_size", "has_relative_attention_bias", "has_spatial_attention_bias", "rel_pos_bins",
            "max_rel_pos", "rel_2d_pos_bins", "max_rel_2d_pos", "visual_embed", "input_size", "patch_size", "num_channels")
    config = LayoutLMv3Config(**common, **{k: c[k] for k in keys})
    return LayoutLMv3ForTokenClassification(config)


def decay_parameter_names(model, torch):
    """The Trainer's rule: parameters of LayerNorm modules and names containing "bias" are not decayed."""
    no_decay = set()
    for module_name, module in model.named_modules():
        if isinstance(module, torch.nn.LayerNorm):
            for n, _ in module.named_parameters(recurse=False):
                no_decay.add((module_name + "." if module_name else "") + n)
    return [n for n, _ in model.named_parameters() if n not in no_decay and "bias" not in n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hf-src", required=True)
    ap.add_argument("--arch", required=True, choices=["layoutlmv3", "lilt"])
    ap.add_argument("--bench-bin", required=True)
    ap.add_argument("--work", default="/tmp/folio-hf-ft-bench")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--layers", type=int, default=12)
    a = ap.parse_args()

    folio = subprocess.Popen([a.bench_bin, "serve", a.arch, str(a.threads), a.work, str(a.layers)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)

    def ask(line):
        folio.stdin.write(line + "\n")
        folio.stdin.flush()
        reply = folio.stdout.readline().strip()
        if not reply or reply.startswith("error"):
            sys.exit("bench_hf_finetune_step serve: " + (reply or "no reply"))
        return reply.split()

    ready = folio.stdout.readline().strip()
    if not ready.startswith("ready "):
        sys.exit("bench_hf_finetune_step serve: " + ready)
    folder = ready.split(" ", 1)[1]

    import torch
    torch.set_num_threads(a.threads)
    build_package(a.hf_src, a.arch, os.path.join(a.work, "pkg-ft-" + a.arch))
    with open(os.path.join(folder, "config.json")) as f:
        folio_config = json.load(f)
    model = make_model(a.arch, folio_config)
    weights = {k: torch.from_numpy(v.copy()) for k, v in hr.read_safetensors(os.path.join(folder, "model.safetensors")).items()}
    missing, unexpected = model.load_state_dict(weights, strict=False)
    if missing or unexpected:
        sys.exit("weights do not match the reference model: missing %s, unexpected %s" % (missing, unexpected))
    batch = {k: torch.from_numpy(v.copy()) for k, v in hr.read_safetensors(os.path.join(folder, "batch.safetensors")).items()}
    labels = batch.pop("labels")
    model.train()

    decay = set(decay_parameter_names(model, torch))
    groups = [{"params": [p for n, p in model.named_parameters() if n in decay], "weight_decay": 0.01},
              {"params": [p for n, p in model.named_parameters() if n not in decay], "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=5e-5, betas=(0.9, 0.999), eps=1e-8)
    warmup, total = 1, 100

    def factor(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        return max(0.0, float(total - step) / float(max(1, total - warmup)))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    params = [p for p in model.parameters()]

    def reference():
        t0 = time.perf_counter()
        out = model(**batch, labels=labels, return_dict=False)
        loss = out[0]
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        model.zero_grad()
        return time.perf_counter() - t0, float(loss), float(norm)

    def folio_step():
        r = ask("step")
        return float(r[1]), float(r[2]), float(r[3])

    ref_t, folio_t, ref_loss, folio_loss, ref_norm, folio_norm = [], [], [], [], [], []

    def run_ref():
        t, l, n = reference()
        ref_t.append(t)
        ref_loss.append(l)
        ref_norm.append(n)

    def run_folio():
        t, l, n = folio_step()
        folio_t.append(t)
        folio_loss.append(l)
        folio_norm.append(n)

    # Peak memory of the steps, not of the loading: both processes' high-water marks are reset here
    # (Linux: "5" to /proc/PID/clear_refs) and read back after the last step (VmHWM); ru_maxrss
    # (loading included) is printed beside them.
    def reset_peak(pid):
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")

    def peak_mib(pid):
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        return float("nan")

    reset_peak(os.getpid())
    reset_peak(folio.pid)
    run_ref()  # warm-up round (learning rate 0 on both sides)
    run_folio()
    sides = [run_ref, run_folio]
    for i in range(a.repeats):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            side()
    ref_step_peak, folio_step_peak = peak_mib(os.getpid()), peak_mib(folio.pid)
    folio_rss = float(ask("rss")[1])
    folio.stdin.write("quit\n")
    folio.stdin.close()
    folio.wait()
    ref_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({
        "arch": a.arch, "layers": a.layers, "threads": a.threads, "repeats": a.repeats,
        "batch": "2 x 512 tokens" + (" + 2 x 224x224 images" if a.arch == "layoutlmv3" else ""),
        "params_m": round(sum(p.numel() for p in params) / 1e6, 1),
        "reference_min_s": min(ref_t[1:]), "folio_min_s": min(folio_t[1:]), "speedup": min(ref_t[1:]) / min(folio_t[1:]),
        "reference_s": ref_t, "folio_s": folio_t,
        "reference_steps_peak_rss_mib": ref_step_peak, "folio_steps_peak_rss_mib": folio_step_peak,
        "reference_peak_rss_mib_with_loading": ref_rss, "folio_peak_rss_mib_with_loading": folio_rss,
        "reference_loss": ref_loss, "folio_loss": folio_loss,
        "reference_grad_norm": ref_norm, "folio_grad_norm": folio_norm,
        "load_avg": os.getloadavg(), "torch": torch.__version__,
        "env": {k: v for k, v in os.environ.items() if k.startswith(("MALLOC_", "OMP_", "OPENBLAS_", "GLIBC_"))},
    }))


if __name__ == "__main__":
    main()
