#!/usr/bin/env python3
"""A random-initialised MarkupLM folder (no pretrained weights can be downloaded here) for
`folio-cli train --init DIR` on web pages (BENCHMARKS.md, issue 46).

    /usr/bin/python3 bench/make_random_markuplm.py OUT_DIR [--hidden 128] [--layers 2] [--heads 4]
        [--intermediate 512] [--positions 514] [--seed 1]

The tokenizer is ../shared/fixtures/parity-new/markuplm_tokenizer/tokenizer (a small byte-level
BPE of 1,060 ids with a 20-tag tags_dict, max_depth 8); model_max_length is raised to the
positions. Weights are drawn as the reference's MarkupLMPreTrainedModel._init_weights draws them:
Linear and Embedding N(0, initializer_range) with zero biases (padding rows zero), LayerNorm 1 / 0.
No head: `train --init` adds one for the data's labels. numpy only; the safetensors file is written
by hand (8-byte header length, JSON header, little-endian float32 data).
"""
import argparse
import json
import os
import shutil
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZER = os.path.join(HERE, "..", "..", "shared", "fixtures", "parity-new", "markuplm_tokenizer", "tokenizer")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--intermediate", type=int, default=512)
    ap.add_argument("--positions", type=int, default=514)
    ap.add_argument("--unit", type=int, default=32, help="xpath_unit_hidden_size")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for f in os.listdir(TOKENIZER):
        shutil.copy(os.path.join(TOKENIZER, f), os.path.join(a.out, f))
    tc_path = os.path.join(a.out, "tokenizer_config.json")
    tc = json.load(open(tc_path))
    tc["model_max_length"] = a.positions - 2
    json.dump(tc, open(tc_path, "w"), indent=2)
    vocab = len(json.load(open(os.path.join(a.out, "vocab.json"))))
    depth = int(tc.get("max_depth", 50))
    tags = len(tc["tags_dict"]) + 2  # unknown tag and pad tag ids
    subs = int(tc.get("pad_width", 1001)) + 1
    d, unit, std = a.hidden, a.unit, 0.02
    config = {
        "architectures": ["MarkupLMModel"], "model_type": "markuplm", "_name_or_path": "random-init-markuplm",
        "vocab_size": vocab, "hidden_size": d, "num_hidden_layers": a.layers, "num_attention_heads": a.heads,
        "intermediate_size": a.intermediate, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1, "max_position_embeddings": a.positions, "type_vocab_size": 2,
        "initializer_range": std, "layer_norm_eps": 1e-12, "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2,
        "max_xpath_tag_unit_embeddings": tags, "max_xpath_subs_unit_embeddings": subs, "tag_pad_id": tags - 1,
        "subs_pad_id": subs - 1, "xpath_unit_hidden_size": unit, "max_depth": depth,
        "position_embedding_type": "absolute", "classifier_dropout": None,
    }
    rng = np.random.default_rng(a.seed)
    w = {}

    def normal(name, shape, pad_row=None):
        t = rng.normal(0.0, std, size=shape).astype(np.float32)
        if pad_row is not None:
            t[pad_row] = 0
        w[name] = t

    def linear(name, n_in, n_out):
        normal(name + ".weight", (n_out, n_in))
        w[name + ".bias"] = np.zeros(n_out, np.float32)

    def norm(name):
        w[name + ".weight"] = np.ones(d, np.float32)
        w[name + ".bias"] = np.zeros(d, np.float32)

    e = "markuplm.embeddings."
    normal(e + "word_embeddings.weight", (vocab, d), pad_row=1)
    normal(e + "position_embeddings.weight", (a.positions, d), pad_row=1)
    normal(e + "token_type_embeddings.weight", (2, d))
    norm(e + "LayerNorm")
    x = e + "xpath_embeddings."
    linear(x + "xpath_unitseq2_inner", depth * unit, 4 * d)
    linear(x + "inner2emb", 4 * d, d)
    linear(x + "xpath_unitseq2_embeddings", depth * unit, d)
    for i in range(depth):
        normal(x + "xpath_tag_sub_embeddings.%d.weight" % i, (tags, unit))
        normal(x + "xpath_subs_sub_embeddings.%d.weight" % i, (subs, unit))
    for layer in range(a.layers):
        p = "markuplm.encoder.layer.%d." % layer
        for q in ("query", "key", "value"):
            linear(p + "attention.self." + q, d, d)
        linear(p + "attention.output.dense", d, d)
        norm(p + "attention.output.LayerNorm")
        linear(p + "intermediate.dense", d, a.intermediate)
        linear(p + "output.dense", a.intermediate, d)
        norm(p + "output.LayerNorm")
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(w):
        data = np.ascontiguousarray(w[name], dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(w[name].shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(os.path.join(a.out, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    json.dump(config, open(os.path.join(a.out, "config.json"), "w"), indent=2)
    print("%s: %d parameters" % (a.out, sum(v.size for v in w.values())))


if __name__ == "__main__":
    main()
