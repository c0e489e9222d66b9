#!/usr/bin/env python3
"""Hand the model back (issue 46): a folder `folio-cli train --init HFDIR` wrote, loaded in Python with the
reference modeling code, gives the logits Folio gives.

  hf_handback_check.py --hf-src DIR --cli build/bin/folio-cli [--arch layoutlmv3|lilt|all]
                       [--shared ../shared] [--work /tmp/folio-handback] [--folder OUT --arch ARCH]

Per architecture:
 1. the start folder (both ways with --arch all; --base for the second): a tiny Hugging Face checkpoint of the shared fixtures (LayoutLMv3 with its image
    branch: fixtures/finetune/finetune_layoutlmv3_tokcls; LiLT: fixtures/parity-new/lilt_tokcls) given
    the tiny byte-level BPE tokenizer of fixtures/parity-next/layoutlmv3_pipeline/checkpoint (its word
    table widened to that vocabulary, as tests/pipeline/tst_hffinetuning.cpp does); as a token
    classifier (its 7-label head and id2label), or with --base as the Hub's base checkpoints are
    (LiltModel / LayoutLMv3Model in `architectures`, no head, no labels; LiLT with its pooler,
    LayoutLMv3's keys without the `layoutlmv3.` prefix);
 2. `folio-cli train --init START --data <funsd> --train-pages 2 --epochs 1 --max-steps 12 --batch 2
    --lr 5e-3 --out OUT` (a new 7-label FUNSD head and a few AdamW steps: the weights written are
    Folio's, not the start's; how many tensors changed is printed);
    or --folder OUT to check a folder made elsewhere;
 3. the folder's other files: tokenizer_config.json and the tokenizer files it needs, README.md (the
    model card, with base_model); then the folder as Python loads it: config.json through the reference configuration class (id2label keys
    made ints, label2id its inverse, `architectures` naming a class of the modeling file, model_type the
    class's), the class `architectures` names from the reference's modeling_<arch>.py (run unchanged),
    and model.safetensors loaded by name the way from_pretrained reports it: every model parameter
    and persistent buffer present with its shape (no "missing"), nothing else (no "unexpected"; the
    non-persistent buffers from_pretrained drops silently are reported apart), the safetensors
    `__metadata__` format "pt" (from_pretrained refuses an archive without it), float32 tensors;
 4. seeded inputs (2 sequences, <s> ... </s>, padding in the second, page-like boxes; LayoutLMv3 also
    pixel_values) through `folio-cli run --checkpoint OUT` and through the Python model (eval,
    no_grad): max |logits difference|.
The transformers library itself (the Auto classes, PreTrainedModel.from_pretrained) is not installed
here and cannot be: this script imports the reference modeling and configuration files through the
small library shims of bench/hfarch_reference.py and bench/hf_finetune_step_reference.py (logging,
docstring decorators, a PretrainedConfig holding its keyword arguments, PreTrainedModel = nn.Module +
config + the extended attention mask) and checks what from_pretrained checks by hand (step 3). It
contains no Hugging Face code. LayoutLMv2 / LayoutXLM (--arch layoutlmv2, also under all): names only.
Their modeling file builds the detectron2 backbone in __init__ (requires_backends) and detectron2 is
not here, so no Python logits; the folder Folio writes from the parity fixture's LayoutLMv2Model (its
detectron2 backbone and pooler, as the reference saved them) must hold exactly those tensors under
`layoutlmv2.` plus the new classifier, with their shapes, `architectures`, labels and metadata.
Prints one JSON line per architecture; exits 1 when a check fails.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hfarch_reference as hr  # noqa: E402  (safetensors reader)

START = {"layoutlmv3": ("fixtures/finetune/finetune_layoutlmv3_tokcls", "layoutlmv3.embeddings.word_embeddings.weight"),
         "lilt": ("fixtures/parity-new/lilt_tokcls", "lilt.embeddings.word_embeddings.weight")}
TOKENIZER = "fixtures/parity-next/layoutlmv3_pipeline/checkpoint"
CLASSES = {"layoutlmv3": ("configuration_layoutlmv3", "LayoutLMv3Config", "modeling_layoutlmv3"),
           "lilt": ("configuration_lilt", "LiltConfig", "modeling_lilt")}
NP_DTYPE = {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64"}


def safetensors_header(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        return json.loads(f.read(n))


def write_safetensors(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        b = a.tobytes()
        header[name] = {"dtype": NP_DTYPE[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def make_start(arch, shared, dest, base=False):
    """The fixture model with the tiny BPE tokenizer, its word table widened to the tokenizer's size."""
    fixture, word_key = START[arch]
    fixture = os.path.join(shared, fixture)
    tok = os.path.join(shared, TOKENIZER)
    os.makedirs(dest, exist_ok=True)
    for f in ("vocab.json", "merges.txt", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(os.path.join(tok, f), os.path.join(dest, f))
    with open(os.path.join(fixture, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(tok, "config.json")) as f:
        vocab = json.load(f)["vocab_size"]
    config["vocab_size"] = vocab
    with open(os.path.join(dest, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    weights = dict(hr.read_safetensors(os.path.join(fixture, "model.safetensors")))
    if base:
        # As the Hub's base checkpoints are: the bare model class (LiltModel with its pooler, which the
        # token classifier does not have; LayoutLMv3Model's keys without the task model's prefix), no
        # head, no labels.
        prefix = arch + "."
        weights = {k: v for k, v in weights.items() if not k.startswith("classifier.")}
        if arch == "lilt":
            h = config["hidden_size"]
            rng = np.random.RandomState(7)
            weights["lilt.pooler.dense.weight"] = (rng.standard_normal((h, h)) * 0.02).astype(np.float32)
            weights["lilt.pooler.dense.bias"] = np.zeros(h, dtype=np.float32)
        else:
            weights = {k[len(prefix):] if k.startswith(prefix) else k: v for k, v in weights.items()}
            word_key = word_key[len(prefix):]
        config["architectures"] = ["LiltModel" if arch == "lilt" else "LayoutLMv3Model"]
        for k in ("id2label", "label2id"):
            config.pop(k, None)
        with open(os.path.join(dest, "config.json"), "w") as f:
            json.dump(config, f, indent=2)
    word = weights[word_key]
    rows = word.shape[0]
    weights[word_key] = np.concatenate([word] + [word[r % rows][None] for r in range(rows, vocab)], axis=0)
    write_safetensors(os.path.join(dest, "model.safetensors"), weights, {"format": "pt"})
    return dest


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stderr[-3000:]))
    return p


def make_inputs(config, seed=46):
    rng = np.random.RandomState(seed)
    n, t = 2, min(40, config["max_position_embeddings"] - 2)
    ids = rng.randint(4, config["vocab_size"], size=(n, t)).astype(np.int64)
    ids[:, 0] = 0
    ids[:, -1] = 2
    mask = np.ones((n, t), dtype=np.int64)
    real = t - 11  # the second sequence is padded
    ids[1, real - 1] = 2
    ids[1, real:] = config.get("pad_token_id", 1)
    mask[1, real:] = 0
    x0 = np.sort(rng.randint(0, 900, size=(n, t)), axis=1)
    y0 = rng.randint(0, 950, size=(n, t))
    box = np.stack([x0, y0, x0 + rng.randint(5, 100, size=(n, t)), y0 + rng.randint(5, 40, size=(n, t))], axis=-1)
    box = np.minimum(box, 1000).astype(np.int64)
    box[:, 0] = 0
    box[:, -1] = [1000, 1000, 1000, 1000] if config["model_type"] == "layoutlmv2" else 0
    box[1, real - 1:] = 0
    inputs = {"input_ids": ids, "bbox": box, "attention_mask": mask}
    if config.get("visual_embed"):
        size = config.get("input_size", 224)
        inputs["pixel_values"] = rng.uniform(-1, 1, size=(n, config.get("num_channels", 3), size, size)).astype(np.float32)
    return inputs


def load_like_from_pretrained(arch, folder, torch, problems):
    """The folder as from_pretrained reads it; problems gets every way it would not load as the reference."""
    import importlib
    conf_mod, conf_cls, model_mod = CLASSES[arch]
    with open(os.path.join(folder, "config.json")) as f:
        cdict = json.load(f)
    ConfigClass = getattr(importlib.import_module("transformers.models.%s.%s" % (arch, conf_mod)), conf_cls)
    modeling = importlib.import_module("transformers.models.%s.%s" % (arch, model_mod))
    if cdict.get("model_type") != ConfigClass.model_type:
        problems.append("config.json model_type %r is not %r" % (cdict.get("model_type"), ConfigClass.model_type))
    archs = cdict.get("architectures") or []
    if len(archs) != 1 or not hasattr(modeling, archs[0]):
        problems.append("config.json architectures %r does not name one class of %s.py" % (archs, model_mod))
        return None, None
    id2label = cdict.get("id2label") or {}
    label2id = cdict.get("label2id") or {}
    if sorted(int(k) for k in id2label) != list(range(len(id2label))) or any(not isinstance(k, str) for k in id2label):
        problems.append("config.json id2label keys are not \"0\"..\"%d\"" % (len(id2label) - 1))
    if {v: int(k) for k, v in id2label.items()} != label2id:
        problems.append("config.json label2id is not id2label's inverse")
    kwargs = {k: v for k, v in cdict.items() if k not in ("architectures", "label2id", "model_type", "transformers_version")}
    config = ConfigClass(**kwargs)
    config.architectures = archs
    model = getattr(modeling, archs[0])(config)
    model.eval()
    path = os.path.join(folder, "model.safetensors")
    header = safetensors_header(path)
    meta = header.get("__metadata__")
    if not isinstance(meta, dict) or meta.get("format") not in ("pt", "tf", "flax", "mlx"):
        problems.append("model.safetensors __metadata__ %r has no format \"pt\" (from_pretrained refuses it)" % (meta,))
    dtypes = sorted({h["dtype"] for k, h in header.items() if k != "__metadata__"})
    if dtypes != ["F32"]:
        problems.append("model.safetensors dtypes %s (float32 expected)" % dtypes)
    weights = {k: torch.from_numpy(v.copy()) for k, v in hr.read_safetensors(path).items()}
    expected = model.state_dict()
    nonpersistent = {n for n, _ in model.named_buffers()} - set(expected)
    missing = sorted(set(expected) - set(weights))
    unexpected = sorted(set(weights) - set(expected) - nonpersistent)
    dropped = sorted(set(weights) & nonpersistent)
    shapes = sorted(k for k in set(weights) & set(expected) if tuple(weights[k].shape) != tuple(expected[k].shape))
    if missing:
        problems.append("missing keys %s" % missing[:10])
    if unexpected:
        problems.append("unexpected keys %s" % unexpected[:10])
    if shapes:
        problems.append("shape mismatches %s" % shapes[:10])
    model.load_state_dict({k: v for k, v in weights.items() if k in expected}, strict=True)
    head = [v for k, v in weights.items() if k == "classifier.weight" or k.endswith("classifier.out_proj.weight")]
    if not head or head[0].shape[0] != config.num_labels:
        problems.append("id2label has %d labels but the head has %s rows" % (config.num_labels, [h.shape[0] for h in head]))
    return model, {"architecture": archs[0], "labels": len(id2label), "tensors": len(weights),
                   "parameters": sum(p.numel() for p in model.parameters()), "dropped_buffers": dropped}


def check(arch, a):
    import torch
    from hf_finetune_step_reference import build_package
    torch.manual_seed(0)
    work = os.path.abspath(os.path.join(a.work, arch + ("-base" if a.base else "")))
    os.makedirs(work, exist_ok=True)
    build_package(a.hf_src, arch, os.path.join(work, "pkg"))
    folder = a.folder
    command = None
    if not folder:
        start = make_start(arch, a.shared, os.path.join(work, "start"), a.base)
        folder = os.path.join(work, "finetuned")
        shutil.rmtree(folder, ignore_errors=True)
        command = [a.cli, "-q", "train", "--init", start, "--data", os.path.join(a.shared, "data/funsd/dataset"),
                   "--train-pages", "2", "--epochs", "1", "--max-steps", str(a.steps), "--batch", "2", "--lr", "5e-3",
                   "--threads", str(a.threads), "--out", folder]
        run(command)
    with open(os.path.join(folder, "config.json")) as f:
        cdict = json.load(f)
    problems = []
    for f in ("tokenizer_config.json", "README.md"):
        if not os.path.isfile(os.path.join(folder, f)):
            problems.append("no %s in the folder" % f)
    if not (os.path.isfile(os.path.join(folder, "tokenizer.json"))
            or all(os.path.isfile(os.path.join(folder, f)) for f in ("vocab.json", "merges.txt"))):
        problems.append("no tokenizer.json nor vocab.json + merges.txt")
    if os.path.isfile(os.path.join(folder, "README.md")):
        with open(os.path.join(folder, "README.md")) as f:
            if "base_model" not in f.read():
                problems.append("README.md (model card) names no base_model")
    changed = None
    if command:
        before = hr.read_safetensors(os.path.join(start, "model.safetensors"))
        after = hr.read_safetensors(os.path.join(folder, "model.safetensors"))
        changed = sum(1 for k in after if k not in before or before[k].shape != after[k].shape
                      or not np.array_equal(before[k], after[k]))
    inputs = make_inputs(cdict)
    in_path, out_path = os.path.join(work, "inputs.safetensors"), os.path.join(work, "folio_outputs.safetensors")
    write_safetensors(in_path, inputs, {"format": "pt"})
    run([a.cli, "-q", "run", "--checkpoint", folder, "--inputs", in_path, "--out", out_path, "--threads", str(a.threads)])
    folio = hr.read_safetensors(out_path)
    model, info = load_like_from_pretrained(arch, folder, torch, problems)
    result = {"arch": arch, "start": "base model (no head)" if a.base else "token classifier", "folder": folder, "command": " ".join(command) if command else None,
              "tensors_changed_by_training": changed}
    if model is not None:
        torch.set_num_threads(a.threads)
        with torch.no_grad():
            t = {k: torch.from_numpy(v) for k, v in inputs.items()}
            logits = model(**t, return_dict=False)[0].numpy()
        if "logits" not in folio:
            problems.append("folio-cli run wrote no logits (%s)" % sorted(folio))
        else:
            diff = np.abs(folio["logits"] - logits)
            real = inputs["attention_mask"].astype(bool)
            result.update(info)
            result["max_abs_diff"] = float(diff.max())
            result["max_abs_diff_real_tokens"] = float(diff[real].max())
            result["max_abs_logit"] = float(np.abs(logits).max())
            result["argmax_agree"] = float((folio["logits"].argmax(-1) == logits.argmax(-1))[real].mean())
            if diff[real].max() > a.tolerance:
                problems.append("logits differ by %.3g (tolerance %.3g)" % (diff[real].max(), a.tolerance))
    result["problems"] = problems
    print(json.dumps(result))
    return not problems


V2_FIXTURE = "fixtures/parity-new/layoutlmv2_visual"


def check_layoutlmv2(a):
    """LayoutLMv2 (names only): its reference class cannot be built here (detectron2), so the folder's
    tensors are compared with the reference's own state_dict as the parity fixture saved it (v4.36
    LayoutLMv2Model with its detectron2 backbone, pooler included), under the task model's prefix."""
    work = os.path.abspath(os.path.join(a.work, "layoutlmv2"))
    start = os.path.join(work, "start")
    os.makedirs(start, exist_ok=True)
    fixture = os.path.join(a.shared, V2_FIXTURE)
    with open(os.path.join(fixture, "config.json")) as f:
        config = json.load(f)
    config["architectures"] = ["LayoutLMv2Model"]
    for k in ("id2label", "label2id"):
        config.pop(k, None)
    with open(os.path.join(start, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    reference = hr.read_safetensors(os.path.join(fixture, "model.safetensors"))
    shutil.copy(os.path.join(fixture, "model.safetensors"), os.path.join(start, "model.safetensors"))
    tok = os.path.join(HERE, "..", "tests", "data", "tokenizers", "layoutlmv2")
    shutil.copy(os.path.join(tok, "tokenizer_config.json"), os.path.join(start, "tokenizer_config.json"))
    with open(os.path.join(tok, "vocab.txt")) as f:
        vocab = f.read().splitlines()
    vocab += ["[unused%d]" % i for i in range(len(vocab), config["vocab_size"])]
    with open(os.path.join(start, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab) + "\n")
    folder = os.path.join(work, "finetuned")
    shutil.rmtree(folder, ignore_errors=True)
    command = [a.cli, "-q", "train", "--init", start, "--data", os.path.join(a.shared, "data/funsd/dataset"),
               "--train-pages", "2", "--epochs", "1", "--max-steps", "3", "--batch", "2", "--lr", "5e-3",
               "--threads", str(a.threads), "--out", folder]
    run(command)
    problems = []
    with open(os.path.join(folder, "config.json")) as f:
        cdict = json.load(f)
    if cdict.get("architectures") != ["LayoutLMv2ForTokenClassification"]:
        problems.append("config.json architectures %r" % cdict.get("architectures"))
    id2label = cdict.get("id2label") or {}
    if {v: int(k) for k, v in id2label.items()} != (cdict.get("label2id") or {}):
        problems.append("config.json label2id is not id2label's inverse")
    header = safetensors_header(os.path.join(folder, "model.safetensors"))
    meta = header.get("__metadata__")
    if not isinstance(meta, dict) or meta.get("format") != "pt":
        problems.append("model.safetensors __metadata__ %r has no format \"pt\"" % (meta,))
    written = {k: tuple(h["shape"]) for k, h in header.items() if k != "__metadata__"}
    expected = {"layoutlmv2." + k: tuple(v.shape) for k, v in reference.items()}
    expected["classifier.weight"] = (len(id2label), config["hidden_size"])
    expected["classifier.bias"] = (len(id2label),)
    missing = sorted(set(expected) - set(written))
    unexpected = sorted(set(written) - set(expected))
    shapes = sorted(k for k in set(written) & set(expected) if written[k] != expected[k])
    for what, keys in (("missing keys", missing), ("unexpected keys", unexpected), ("shape mismatches", shapes)):
        if keys:
            problems.append("%s %s" % (what, keys[:10]))
    after = hr.read_safetensors(os.path.join(folder, "model.safetensors"))
    changed = sum(1 for k, v in reference.items() if "layoutlmv2." + k in after and not np.array_equal(after["layoutlmv2." + k], v))
    result = {"arch": "layoutlmv2", "start": "base model (LayoutLMv2Model with its detectron2 backbone)", "folder": folder,
              "command": " ".join(command), "tensors": len(written), "reference_tensors": len(reference),
              "tensors_changed_by_training": changed, "labels": len(id2label),
              "logits": "not compared: the reference LayoutLMv2 class needs detectron2 to be built", "problems": problems}
    print(json.dumps(result))
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hf-src", required=True, help="a transformers src/transformers folder (models/<arch>/...)")
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "bin", "folio-cli"))
    ap.add_argument("--arch", default="all", choices=["all", "layoutlmv3", "lilt", "layoutlmv2"])
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    ap.add_argument("--work", default="/tmp/folio-handback")
    ap.add_argument("--folder", help="check this folder instead of training one (with one --arch)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--base", action="store_true", help="start from the fixture made a base checkpoint (no head, no labels)")
    ap.add_argument("--steps", type=int, default=12, help="folio-cli train --max-steps")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    a = ap.parse_args()
    a.cli = os.path.abspath(a.cli)
    a.shared = os.path.abspath(a.shared)
    if a.arch == "all":
        if a.folder:
            sys.exit("--folder needs one --arch")
        ok = True
        for arch in ("layoutlmv3", "lilt"):  # one process each: each imports its own shimmed package
            for base in ([], ["--base"]):
                p = subprocess.run([sys.executable] + sys.argv + ["--arch", arch] + base)
                ok = ok and p.returncode == 0
        ok = check_layoutlmv2(a) and ok
        sys.exit(0 if ok else 1)
    if a.arch == "layoutlmv2":
        sys.exit(0 if check_layoutlmv2(a) else 1)
    sys.exit(0 if check(a.arch, a) else 1)


if __name__ == "__main__":
    main()
