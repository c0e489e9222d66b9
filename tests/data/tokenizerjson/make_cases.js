// Builds the tokenizer.json cases of tests/inference/tst_tokenizerjson with the Hugging Face
// `tokenizers` library's Node bindings (the reference), outside the project's build:
//   cd /work/ref/tok && npm install tokenizers@0.23.2
//   NODE_PATH=/work/ref/tok/node_modules node tests/data/tokenizerjson/make_cases.js
// Each case folder gets the library's own serialisation of the tokenizer (tokenizer.json, saved by
// Tokenizer.save after loading the spec below with Tokenizer.fromString) and cases.json: for every
// word list, the library's encode(words, null, {isPretokenized: true}) ids, tokens, word ids and
// offsets (per word, as the library gives them), with and without special tokens. Nothing in the project runs this script.
'use strict';
const fs = require('fs');
const path = require('path');
const tk = require('tokenizers');

const here = __dirname;
const repo = path.resolve(here, '../../..');
const shared = path.resolve(repo, '../shared/fixtures');

// A SentencePiece ModelProto, read just far enough: pieces (piece, score, type) and
// normalizer_spec.precompiled_charsmap.
function readSpm(file) {
    const buf = fs.readFileSync(file);
    function varint(s) { let v = 0n, shift = 0n; for (;;) { const b = buf[s.p++]; v |= BigInt(b & 0x7f) << shift; if (!(b & 0x80)) return Number(v); shift += 7n; } }
    function fields(begin, end, cb) {
        const s = { p: begin };
        while (s.p < end) {
            const key = varint(s), f = key >> 3, w = key & 7;
            if (w === 0) cb(f, w, varint(s));
            else if (w === 2) { const n = varint(s); cb(f, w, [s.p, s.p + n]); s.p += n; }
            else if (w === 5) { cb(f, w, buf.readFloatLE(s.p)); s.p += 4; }
            else if (w === 1) { s.p += 8; }
            else throw new Error('wire ' + w);
        }
    }
    const pieces = []; let charsmap = null;
    fields(0, buf.length, (f, w, v) => {
        if (f === 1 && w === 2) {
            const piece = { piece: '', score: 0, type: 1 };
            fields(v[0], v[1], (g, x, u) => {
                if (g === 1) piece.piece = buf.toString('utf8', u[0], u[1]);
                else if (g === 2) piece.score = u;
                else if (g === 3) piece.type = u;
            });
            pieces.push(piece);
        } else if (f === 3 && w === 2) {
            fields(v[0], v[1], (g, x, u) => { if (g === 2) charsmap = buf.subarray(u[0], u[1]); });
        }
    });
    return { pieces, charsmap };
}

function special(id, content, extra) {
    return Object.assign({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }, extra || {});
}

// As transformers' RobertaConverter builds LayoutLMv3 / LiLT / MarkupLM fast tokenizers.
function robertaSpec(dir, addPrefixSpace) {
    const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
    const merges = fs.readFileSync(path.join(dir, 'merges.txt'), 'utf8').split('\n').slice(1).filter((l) => l.length > 0);
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: [special(0, '<s>'), special(1, '<pad>'), special(2, '</s>'), special(3, '<unk>'),
                       special(vocab['<mask>'], '<mask>', { lstrip: true })],
        normalizer: null,
        pre_tokenizer: { type: 'ByteLevel', add_prefix_space: addPrefixSpace, trim_offsets: true, use_regex: true },
        post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0], trim_offsets: true, add_prefix_space: addPrefixSpace },
        decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
                 fuse_unk: false, byte_fallback: false, vocab, merges },
    };
}

// As BertConverter builds LayoutLMv2's fast tokenizer (do_lower_case true, strip_accents null).
function bertSpec(vocabTxt, lowercase, stripAccents) {
    const vocab = {};
    fs.readFileSync(vocabTxt, 'utf8').split('\n').forEach((l, i, all) => { if (i < all.length - 1 || l.length) vocab[l.replace(/\r$/, '')] = i; });
    const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => special(vocab[t], t));
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: specials,
        normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: stripAccents, lowercase },
        pre_tokenizer: { type: 'BertPreTokenizer' },
        post_processor: { type: 'TemplateProcessing',
            single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
            pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
                   { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
            special_tokens: { '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
                              '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] } } },
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    };
}

// As XLMRobertaConverter (SpmConverter) builds LayoutXLM's / XLM-R's fast tokenizer.
function xlmrSpec(modelFile) {
    const spm = readSpm(modelFile);
    const vocab = [['<s>', 0], ['<pad>', 0], ['</s>', 0], ['<unk>', 0]]
        .concat(spm.pieces.slice(3).map((p) => [p.piece, p.score])).concat([['<mask>', 0]]);
    const mask = vocab.length - 1;
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: [special(0, '<s>'), special(1, '<pad>'), special(2, '</s>'), special(3, '<unk>'),
                       special(mask, '<mask>', { lstrip: true })],
        normalizer: { type: 'Sequence', normalizers: [
            { type: 'Precompiled', precompiled_charsmap: Buffer.from(spm.charsmap).toString('base64') },
            { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
        pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
        post_processor: { type: 'TemplateProcessing',
            single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
            pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } },
                   { SpecialToken: { id: '</s>', type_id: 0 } }, { Sequence: { id: 'B', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
            special_tokens: { '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } } },
        decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
        model: { type: 'Unigram', unk_id: 3, vocab, byte_fallback: false },
    };
}

// Hard words: accents (composed and combining), German umlauts and ß, CJK, emoji (with modifiers
// and joiners), white-space runs inside a word, tabs, NBSP, zero-width and control characters,
// added / special tokens alone and glued to text, long words, numbers, punctuation, case.
const common = [
    ['Rechnung', 'Nr.', '2024-0815', 'vom', '31.12.2024'],
    ['Straße', 'Größe', 'ÄRGER', 'über', 'Fußgänger', 'Maß'],
    ['Café', 'naïve', 'cafe\u0301', 'résumé', 'São', 'Paulo', 'İstanbul', 'ΣΟΦΙΑΣ'],
    ['東京都', '日本語テキスト', '北京', '한국어', 'ไทย', 'русский'],
    ['😀', '👍🏽', '👨\u200d👩\u200d👧', 'a😀b', '🇩🇪', '✓', '€5', '£', '¥100'],
    ['a  b', '  leading', 'trailing  ', '\t', '  ', 'x\ty', 'a\u00a0b', 'zero\u200bwidth', 'ctl\u0007x', 'new\nline', '', 'nel\u0085x', 'fs\u001cx', 'ls\u2028x', 'cr\r\nlf', 'soft\u00adhyphen', 'bom\ufeffx', '\ufeffstart'],
    ['Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen', 'supercalifragilisticexpialidocious',
     'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['1234567.89', '$3,000.00', '-42', '10%', '½', '①', 'Ⅻ', '１２３', 'x²', '0x1F'],
    ['(c)', '...', '—', '–', '"quoted"', '«guillemets»', 'don\'t', 'it\'s', 'O\'Neil', '@user', '#tag', 'a/b\\c', '<b>', '[x]', 'ﬁne', 'ＡＢＣ'],
    ['HELLO', 'Hello', 'hELLo', 'MiXeD123case', 'e.g.', 'U.S.A.'],
];
// Words that once differed (a Unicode 15 emoji and an unassigned code point, which BERT's clean-up
// keeps; a Devanagari letter + emoji modifier, where Qt 6.4 reported a grapheme
// boundary inside the surrogate pair; a zero-width joiner after a single_word token) and three
// lists of 25 random words drawn from mixed scripts, marks, emoji, compatibility forms, white space,
// control characters and special-token texts (a fixed linear congruential generator, seed 7).
common.push(['\u{1FAE8}', 'a\u{1FAE8}b', 'a\u0378b', 'a\ue000b', 'a\u0600b', '\u1E9E', '\u0939\u{1F3FD}', '\u0926\u{1F3FD}\u0937', 'a\u0939\u{1F3FD}\u0939\u{1F3FD}', 'Zoll\u200d[MASK]', 'Zoll\u200c', '\u200dZoll']);
{
    let seed = 7;
    const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const pools = ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', '.,;:!?\'"()[]{}<>-_/\\@#$%^&*+=~`|',
        'äöüßÄÖÜéèêëàâçñÿøåæœÆŒİıŞşĞğ', '\u0301\u0308\u0327\u0300\u20dd\u0489', 'αβγδΣσςΩωАБВгдежЖЁё',
        '東京都日本語北京中文字漢字ひらがなカタカナ', '한국어가각\u1100\u1161\u11a8', 'ابتثجحخ\u064b\u0651', 'हिन्दीक्षत्र',
        'ไทยภาษา\u0e31\u0e34', '😀👍🏽👨\u200d👩\u200d👧🇩🇪✓❤\ufe0f\u200d', 'ＡＢＣａｂｃ１２３！？ﬁﬂ①②ⅫⅣ½¼²³㎏㍿',
        ' \t\n\r\u00a0\u2000\u2003\u3000\u200b\u2028\u0085\u001c\ufeff\u00ad', '\u0000\u0007\u001b\u007f\ue000\ufffd'];
    const specials = ['<mask>', '<s>', '</s>', '<unk>', '<pad>', '[MASK]', '[CLS]', '[SEP]', '[UNK]', 'Zoll', 'zoll'];
    for (let list = 0; list < 3; ++list) {
        const ws = [];
        for (let k = 0; k < 25; ++k) {
            let w = '';
            for (let i = 1 + rnd(10); i > 0; --i) {
                if (rnd(12) === 0) { w += specials[rnd(specials.length)]; continue; }
                const p = [...pools[rnd(pools.length)]];
                w += p[rnd(p.length)];
            }
            ws.push(w);
        }
        common.push(ws);
    }
}
// Every word of the first four FUNSD test pages (sorted file names), 60 words a list: real form
// text for the merges, WordPiece continuations and Unigram paths (kept in cases.json as data).
const funsdDir = path.resolve(repo, '../shared/data/funsd/dataset/testing_data/annotations');
const funsd = [];
for (const f of fs.readdirSync(funsdDir).sort().slice(0, 4))
    for (const form of JSON.parse(fs.readFileSync(path.join(funsdDir, f), 'utf8')).form)
        for (const w of form.words) funsd.push(w.text);
for (let i = 0; i < funsd.length; i += 60) common.push(funsd.slice(i, i + 60));
const robertaSpecials = [['<mask>', 'x<mask>y', ' <mask>', '<mask> ', 'a <mask> b', '<s>', '</s>x', '<pad><unk>', '<MASK>', '<mask><mask>']];
const bertSpecials = [['[MASK]', 'x[MASK]y', ' [MASK] ', '[CLS]', '[SEP]x', '[UNK]', '[mask]', '[PAD][MASK]']];

// The bindings take no pre-tokenized input (encode wants a string), so a word list is encoded as
// the library's Rust core encodes one (Tokenizer::encode_single_sequence with PreTokenized input):
// every word on its own, as a string (normaliser, pre-tokeniser and model applied to that word
// alone), the encodings merged in order, then the post-processor's special tokens; a token's word
// id is the index of the word it came from.
async function encodeWords(tok, words, addSpecialTokens) {
    const encs = [];
    for (const w of words) encs.push(await tok.encode(w, null, { addSpecialTokens: false }));
    const ids = [], tokens = [], wordIds = [], offsets = [];
    encs.forEach((e, i) => {
        ids.push(...e.getIds()); tokens.push(...e.getTokens()); offsets.push(...e.getOffsets());
        e.getIds().forEach(() => wordIds.push(i));
    });
    if (!addSpecialTokens) return { ids, tokens, wordIds, offsets, perWord: encs.map((e) => e.getIds()) };
    // The post-processor run by the library on the merged encoding.
    const merged = encs.length ? tk.mergeEncodings(encs, false) : await tok.encode('', null, { addSpecialTokens: false });
    const post = tok.postProcess(merged, null, true);
    const postIds = post.getIds();
    // Word ids: the specials the post-processor added get -1; the merged tokens keep their word.
    const out = { ids: postIds, tokens: post.getTokens(), wordIds: [], offsets: post.getOffsets() };
    const special = post.getSpecialTokensMask();
    let k = 0;
    for (let i = 0; i < postIds.length; ++i) out.wordIds.push(special[i] ? -1 : wordIds[k++]);
    if (k !== ids.length) throw new Error('post-processor changed the tokens');
    return out;
}

async function buildCase(name, spec, words, extraFiles, note) {
    const dir = path.join(here, name);
    fs.mkdirSync(dir, { recursive: true });
    const tok = tk.Tokenizer.fromString(JSON.stringify(spec));
    tok.save(path.join(dir, 'tokenizer.json'), true);
    const again = tk.Tokenizer.fromFile(path.join(dir, 'tokenizer.json'));
    const cases = [];
    for (const ws of words) {
        const withSpecials = await encodeWords(again, ws, true);
        const plain = await encodeWords(again, ws, false);
        cases.push({ words: ws, input_ids: withSpecials.ids, tokens: withSpecials.tokens, word_ids: withSpecials.wordIds,
                     offsets: plain.offsets, ids_per_word: plain.perWord });
    }
    const out = { library: 'tokenizers (npm) ' + require('tokenizers/package.json').version, note,
                  vocab_size: again.getVocabSize(true), cases };
    fs.writeFileSync(path.join(dir, 'cases.json'), JSON.stringify(out, null, 1) + '\n');
    for (const [file, text] of Object.entries(extraFiles || {}))
        fs.writeFileSync(path.join(dir, file), text);
}

(async () => {
const v3 = path.join(shared, 'parity-next/layoutlmv3_tokenizer/tokenizer');
const mlm = path.join(shared, 'parity-new/markuplm_tokenizer/tokenizer');
await buildCase('roberta_bpe', robertaSpec(v3, true), common.concat(robertaSpecials), {},
          'LayoutLMv3 / LiLT: byte-level BPE, add_prefix_space true (vocabulary and merges of ../shared/fixtures/parity-next/layoutlmv3_tokenizer)');
const markupConfig = JSON.parse(fs.readFileSync(path.join(mlm, 'tokenizer_config.json'), 'utf8'));
await buildCase('markuplm_bpe', robertaSpec(mlm, false), common.concat(robertaSpecials),
          { 'tokenizer_config.json': JSON.stringify({ tokenizer_class: 'MarkupLMTokenizer', add_prefix_space: false,
                                                      tags_dict: markupConfig.tags_dict, max_depth: markupConfig.max_depth,
                                                      max_width: markupConfig.max_width, pad_width: markupConfig.pad_width,
                                                      model_max_length: 512 }, null, 1) + '\n' },
          'MarkupLM: byte-level BPE, add_prefix_space false (vocabulary and merges of ../shared/fixtures/parity-new/markuplm_tokenizer)');
await buildCase('bert_wordpiece', bertSpec(path.join(repo, 'tests/data/tokenizers/layoutlmv2/vocab.txt'), true, null),
          common.concat(bertSpecials), {}, 'LayoutLMv2: BERT WordPiece, lowercase, strip_accents null (vocab.txt of ../tokenizers/layoutlmv2)');
await buildCase('bert_wordpiece_cased', bertSpec(path.join(repo, 'tests/data/tokenizers/layoutlmv2/vocab.txt'), false, false),
          common.concat(bertSpecials), {}, 'BERT WordPiece, cased, strip_accents false (vocab.txt of ../tokenizers/layoutlmv2)');
await buildCase('xlmr_unigram', xlmrSpec(path.join(repo, 'tests/data/tokenizers/layoutxlm/sentencepiece.bpe.model')),
          common.concat(robertaSpecials), {}, 'LayoutXLM / XLM-R: Unigram with the SentencePiece precompiled normaliser (sentencepiece.bpe.model of ../tokenizers/layoutxlm)');
// Two files with the other supported parts (no architecture above ships them, Hub models do):
// NFKC, NFD + StripAccents, Lowercase, Replace, Prepend, WhitespaceSplit, Punctuation, Digits and
// BertProcessing around WordPiece; Strip, Whitespace, BPE with an unk_token fused over unknown
// characters and RobertaProcessing around the LayoutLMv3 vocabulary without byte-level mapping.
const wp = bertSpec(path.join(repo, 'tests/data/tokenizers/layoutlmv2/vocab.txt'), true, null);
wp.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' },
                  { type: 'Replace', pattern: { String: 'ß' }, content: 'ss' }, { type: 'Prepend', prepend: '' }] };
wp.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Punctuation', behavior: 'Isolated' },
                     { type: 'Digits', individual_digits: true }] };
wp.post_processor = { type: 'BertProcessing', sep: ['[SEP]', wp.model.vocab['[SEP]']], cls: ['[CLS]', wp.model.vocab['[CLS]']] };
await buildCase('generic_wordpiece', wp, common.concat(bertSpecials), {},
                'WordPiece behind NFKC, NFD + StripAccents, Lowercase, Replace, Prepend, WhitespaceSplit, Punctuation, Digits');
const bu = robertaSpec(v3, true);
bu.normalizer = { type: 'Strip', strip_left: true, strip_right: false };
bu.pre_tokenizer = { type: 'Whitespace' };
bu.model.unk_token = '<unk>';
bu.model.fuse_unk = true;
await buildCase('generic_bpe_unk', bu, common.concat(robertaSpecials), {},
                'BPE with unk_token and fuse_unk behind Strip and Whitespace (the LayoutLMv3 vocabulary, no byte-level mapping)');
// BPE with a continuing-subword prefix, an end-of-word suffix, ignore_merges and a fused unk, behind
// Lowercase and Whitespace + Digits + Punctuation (MergedWithPrevious): a small hand-made vocabulary.
await buildCase('generic_bpe_affixes', {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [special(0, '<unk>'), special(11, '<s>'), special(12, '</s>'), special(21, '<pad>')],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Whitespace' }, { type: 'Digits', individual_digits: false },
                                                      { type: 'Punctuation', behavior: 'MergedWithPrevious' }] },
    post_processor: { type: 'RobertaProcessing', sep: ['</s>', 12], cls: ['<s>', 11], trim_offsets: true, add_prefix_space: false },
    decoder: null,
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: '##', end_of_word_suffix: '</w>',
             fuse_unk: true, byte_fallback: false, ignore_merges: true,
             vocab: { '<unk>': 0, h: 1, '##e': 2, '##l': 3, '##o': 4, '##o</w>': 5, he: 6, hel: 7, '##l</w>': 8, w: 9, 'hello</w>': 10,
                      '1': 13, '##2': 14, '##2</w>': 15, '.': 16, '.</w>': 17, '##.</w>': 18, 'h</w>': 19, '##ll': 20,
                      '<s>': 11, '</s>': 12, '<pad>': 21 },
             merges: [['h', '##e'], ['he', '##l'], ['##l', '##l']] },
}, [['hello', 'HELLO', 'hell', 'hel', 'help', 'hhh', 'w', 'world', 'he.', 'hello.', '12', '122', '1.2', 'a1b2', 'h', 'xyz', 'héllo'],
    ['<s>hello</s>', 'hello world', 'HeLLo!!', '12.12', '...', 'ell', 'llll']], {},
   'BPE with continuing_subword_prefix, end_of_word_suffix, ignore_merges, unk_token and fuse_unk behind Lowercase, Whitespace, Digits, Punctuation');
// Unigram behind NFKC + Lowercase and Metaspace with prepend_scheme "first" and no split, and added
// tokens that are normalised (matched after lower-casing), single_word, or rstrip.
const uf = xlmrSpec(path.join(repo, 'tests/data/tokenizers/layoutxlm/sentencepiece.bpe.model'));
uf.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] };
uf.pre_tokenizer = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'first', split: false };
uf.added_tokens[2].rstrip = true;
uf.added_tokens.push(special(uf.model.vocab.length, 'Zoll', { normalized: true, single_word: true, special: false }));
await buildCase('generic_unigram_first', uf,
                common.concat(robertaSpecials).concat([['ZOLL', 'Zollamt', 'a Zoll b', 'Zoll<mask>Zoll', '</s>   x', 'x<mask> y', 'x</s> y', '_Zoll_', 'zoll.']]),
                {}, 'Unigram behind NFKC + Lowercase, Metaspace prepend_scheme first without split, normalised / single_word / rstrip added tokens');
// Larger vocabularies trained by the library itself (its default trainers) on the FUNSD training
// words (one a line, the 149 training pages' annotation files in sorted order), so that merges,
// continuations and Unigram paths are exercised beyond the tiny fixtures; the architecture's
// specials are appended after the trained ids. WordPiece and Unigram training is not reproducible
// byte for byte (the library's hash maps are seeded at random), so a folder that already holds its
// trained tokenizer.json keeps it (its cases are recomputed); `--retrain` trains again.
const retrain = process.argv.includes('--retrain');
const trainDir = path.resolve(repo, '../shared/data/funsd/dataset/training_data/annotations');
function trained(model, setup) {
    const corpus = path.join(require('os').tmpdir(), 'folio_tokenizerjson_corpus.txt');
    const trainWords = [];
    for (const f of fs.readdirSync(trainDir).sort())
        for (const form of JSON.parse(fs.readFileSync(path.join(trainDir, f), 'utf8')).form)
            for (const w of form.words) trainWords.push(w.text);
    fs.writeFileSync(corpus, trainWords.join('\n'));
    const t = new tk.Tokenizer(model);
    setup(t);
    t.train([corpus]);
    const file = path.join(require('os').tmpdir(), 'folio_tokenizerjson_trained.json');
    t.save(file);
    return JSON.parse(fs.readFileSync(file, 'utf8'));
}
async function trainedCase(name, makeSpec, words, note) {
    const file = path.join(here, name, 'tokenizer.json');
    const spec = !retrain && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : makeSpec();
    await buildCase(name, spec, words, {}, note);
}
await trainedCase('trained_bpe', () => {
    const tb = trained(tk.BPE.empty(), (t) => t.setPreTokenizer(tk.byteLevelPreTokenizer(true, true)));
    const spec = robertaSpec(v3, true);
    spec.model.vocab = tb.model.vocab;
    spec.model.merges = tb.model.merges;
    const n = Object.keys(tb.model.vocab).length;
    spec.added_tokens = [special(n, '<s>'), special(n + 1, '<pad>'), special(n + 2, '</s>'), special(n + 3, '<unk>'),
                         special(n + 4, '<mask>', { lstrip: true })];
    spec.post_processor.cls = ['<s>', n];
    spec.post_processor.sep = ['</s>', n + 2];
    return spec;
}, common.concat(robertaSpecials), 'byte-level BPE trained by the library on FUNSD training words (RoBERTa specials after the trained ids)');
await trainedCase('trained_wordpiece', () => {
    const tw = trained(tk.WordPiece.empty(), (t) => { t.setNormalizer(tk.bertNormalizer({ lowercase: true })); t.setPreTokenizer(tk.bertPreTokenizer()); });
    const vocab = tw.model.vocab;
    let n = Object.keys(vocab).length;
    for (const sp of ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']) if (!(sp in vocab)) vocab[sp] = n++;
    const spec = bertSpec(path.join(repo, 'tests/data/tokenizers/layoutlmv2/vocab.txt'), true, null);
    spec.model.vocab = vocab;
    spec.added_tokens = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => special(vocab[t], t));
    spec.post_processor.special_tokens['[CLS]'].ids = [vocab['[CLS]']];
    spec.post_processor.special_tokens['[SEP]'].ids = [vocab['[SEP]']];
    return spec;
}, common.concat(bertSpecials), 'WordPiece trained by the library on FUNSD training words (BERT normaliser and pre-tokeniser, specials after the trained ids)');
await trainedCase('trained_unigram', () => {
    const tu = trained(tk.Unigram.empty(), (t) => t.setPreTokenizer(tk.metaspacePreTokenizer('\u2581', 'always', true)));
    const spec = xlmrSpec(path.join(repo, 'tests/data/tokenizers/layoutxlm/sentencepiece.bpe.model'));
    const vocab = tu.model.vocab.filter((p) => !['<s>', '<pad>', '</s>', '<unk>', '<mask>'].includes(p[0]));
    const n = vocab.length;
    spec.model.vocab = vocab.concat([['<s>', 0], ['<pad>', 0], ['</s>', 0], ['<unk>', 0], ['<mask>', 0]]);
    spec.model.unk_id = n + 3;
    spec.added_tokens = [special(n, '<s>'), special(n + 1, '<pad>'), special(n + 2, '</s>'), special(n + 3, '<unk>'),
                         special(n + 4, '<mask>', { lstrip: true })];
    spec.post_processor.special_tokens['<s>'].ids = [n];
    spec.post_processor.special_tokens['</s>'].ids = [n + 2];
    return spec;
}, common.concat(robertaSpecials), 'Unigram trained by the library on FUNSD training words, behind the layoutxlm Precompiled normaliser and Metaspace');
console.log('done');
})().catch((e) => { console.error(e); process.exit(1); });
