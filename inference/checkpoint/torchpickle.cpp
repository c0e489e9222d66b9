#include "inference/checkpoint/torchpickle.h"

#include "inference/checkpoint/detail/picklevalue.h"
#include "inference/checkpoint/torchzip.h"
#include "inference/errors.h"

#include <cstring>
#include <map>

namespace folio::inference {

using detail::PickleArena;
using detail::PickleValue;

namespace {

constexpr std::size_t kMaxPickle = 256u << 20;
constexpr std::size_t kMaxStack = 1u << 22;
constexpr std::size_t kMaxMemo = 1u << 22;
// Values one pickle may build (104 bytes each, so at most ~110 MB): a state dict takes about 20 a
// tensor, so this is some 50,000 tensors in one file.
constexpr std::size_t kMaxValues = 1u << 20;
// Places in lists, tuples and dicts one pickle may fill (issue 51): a memoised value can be put in
// any number of them (BINGET pushes no new value), so the values alone do not bound memory. 8 M
// places (8-16 bytes each) are far above a state dict's ~20 a tensor.
constexpr std::size_t kMaxSlots = 1u << 23;

using Value = PickleValue;
using ValuePtr = PickleValue *;

bool storageDType(const std::string &global, DType *out)
{
    static const std::map<std::string, DType> types{
        {"torch.FloatStorage", DType::F32},   {"torch.DoubleStorage", DType::F64}, {"torch.HalfStorage", DType::F16},
        {"torch.BFloat16Storage", DType::BF16}, {"torch.LongStorage", DType::I64}, {"torch.IntStorage", DType::I32},
        {"torch.ShortStorage", DType::I16},   {"torch.CharStorage", DType::I8},    {"torch.ByteStorage", DType::U8},
        {"torch.BoolStorage", DType::Bool}};
    const auto it = types.find(global);
    if (it == types.end())
        return false;
    *out = it->second;
    return true;
}

const char *const kAllowed[] = {"collections.OrderedDict", "torch._utils._rebuild_tensor_v2",
                                "torch._utils._rebuild_parameter"};
// Training checkpoints only: classes built as inert data (torchpickle.h readTorchTrainingCheckpoint).
const char *const kInert[] = {"argparse.Namespace", "__builtin__.set", "builtins.set", "__builtin__.frozenset",
                              "builtins.frozenset", "_codecs.encode", "numpy.dtype", "numpy.core.multiarray.scalar"};

// UTF-8 text whose code points are all below 256 -> those bytes (what _codecs.encode(s, "latin1")
// gives back); false on anything else.
bool latin1Bytes(const std::string &utf8, std::string *out)
{
    out->clear();
    for (std::size_t k = 0; k < utf8.size(); ++k) {
        const auto c = std::uint8_t(utf8[k]);
        if (c < 0x80) {
            out->push_back(char(c));
        } else if ((c & 0xE0) == 0xC0 && c <= 0xC3 && k + 1 < utf8.size() && (std::uint8_t(utf8[k + 1]) & 0xC0) == 0x80) {
            out->push_back(char(((c & 0x03) << 6) | (std::uint8_t(utf8[k + 1]) & 0x3F)));
            ++k;
        } else {
            return false;
        }
    }
    return true;
}

class Unpickler
{
public:
    // `inert`: a training checkpoint (kInert classes allowed as data), else a plain state dict.
    Unpickler(const std::string &data, const std::string &source, bool inert = false)
        : m_data(data), m_source(source), m_inert(inert)
    {
    }

    ValuePtr run()
    {
        if (m_data.size() > kMaxPickle)
            fail("the pickle is larger than 256 MiB");
        while (true) {
            const std::size_t at = m_at;
            const std::uint8_t op = byte();
            switch (op) {
            case 0x80: byte(); break;                // PROTO
            case 0x95: le(8); break;                 // FRAME
            case '.': {                              // STOP
                ValuePtr v = pop("STOP");
                if (!m_stack.empty())
                    fail("items left on the stack at STOP");
                return v;
            }
            case '(': push(make(Value::Mark)); break;
            case 'N': push(make(Value::None)); break;
            case 0x88: case 0x89: { auto v = make(Value::Bool); v->i = op == 0x88; push(v); break; }
            case 'K': pushInt((long long)byte()); break;
            case 'M': pushInt((long long)le(2)); break;
            case 'J': pushInt((long long)std::int32_t(std::uint32_t(le(4)))); break;
            case 0x8a: {                              // LONG1
                const std::size_t n = byte();
                if (n > 8)
                    fail("an integer wider than 64 bits");
                std::uint64_t u = le(int(n));
                if (n > 0 && n < 8 && (u >> (8 * n - 1)) & 1)
                    u |= ~std::uint64_t(0) << (8 * n);
                pushInt((long long)u);
                break;
            }
            case 'G': {                               // BINFLOAT (big endian)
                std::uint64_t u = 0;
                for (int k = 0; k < 8; ++k)
                    u = (u << 8) | byte();
                auto v = make(Value::Float);
                std::memcpy(&v->f, &u, 8);
                push(v);
                break;
            }
            case 'X': pushString(bytes(le(4))); break;       // BINUNICODE
            case 0x8c: pushString(bytes(byte())); break;     // SHORT_BINUNICODE
            case 0x8d: pushString(bytes(le(8))); break;      // BINUNICODE8
            case 'U': pushString(bytes(byte())); break;      // SHORT_BINSTRING
            case 'T': pushString(bytes(le(4))); break;       // BINSTRING
            case 'B': case 'C': case 0x8e:                   // BINBYTES, SHORT_BINBYTES, BINBYTES8
                if (!m_inert)
                    refuseOpcode(op, at);
                pushString(bytes(op == 'C' ? byte() : le(op == 'B' ? 4 : 8)));
                break;
            case 0x81: {                             // NEWOBJ (training checkpoints: argparse.Namespace)
                if (!m_inert)
                    refuseOpcode(op, at);
                ValuePtr args = pop("NEWOBJ"), cls = pop("NEWOBJ");
                if (cls->kind != Value::Global || cls->s != "argparse.Namespace" || args->kind != Value::Tuple
                    || !args->items.empty())
                    fail("NEWOBJ of " + (cls->kind == Value::Global ? cls->s : std::string("something other than a class"))
                         + " (only argparse.Namespace() is built); refused (nothing was run)");
                auto v = make(Value::Object);
                v->s = cls->s;
                push(v);
                break;
            }
            case ')': push(make(Value::Tuple)); break;
            case ']': push(make(Value::List)); break;
            case '}': push(make(Value::Dict)); break;
            case 't': { auto v = make(Value::Tuple); v->items = popToMark("TUPLE"); slots(v->items.size()); push(v); break; }
            case 0x85: case 0x86: case 0x87: {
                auto v = make(Value::Tuple);
                v->items.resize(std::size_t(op - 0x84));
                for (std::size_t k = v->items.size(); k-- > 0;)
                    v->items[k] = pop("TUPLEn");
                push(v);
                break;
            }
            case 'a': { ValuePtr x = pop("APPEND"); slots(1); listAt("APPEND")->items.push_back(x); break; }
            case 'e': { auto xs = popToMark("APPENDS"); slots(xs.size()); auto l = listAt("APPENDS"); l->items.insert(l->items.end(), xs.begin(), xs.end()); break; }
            case 's': { ValuePtr v = pop("SETITEM"), k = pop("SETITEM"); slots(1); dictAt("SETITEM")->dict.emplace_back(k, v); break; }
            case 'u': {
                auto xs = popToMark("SETITEMS");
                if (xs.size() % 2)
                    fail("SETITEMS with an odd number of items");
                auto d = dictAt("SETITEMS");
                slots(xs.size() / 2);
                for (std::size_t k = 0; k < xs.size(); k += 2)
                    d->dict.emplace_back(xs[k], xs[k + 1]);
                break;
            }
            case 'q': memoPut(byte()); break;        // BINPUT
            case 'r': memoPut(le(4)); break;         // LONG_BINPUT
            case 0x94: memoPut(m_memo.size()); break; // MEMOIZE
            case 'h': push(memoGet(byte())); break;  // BINGET
            case 'j': push(memoGet(le(4))); break;   // LONG_BINGET
            case 'c': {                              // GLOBAL "module\nname\n"
                const std::string module = line(), name = line();
                pushGlobal(module + "." + name);
                break;
            }
            case 0x93: {                             // STACK_GLOBAL
                ValuePtr name = pop("STACK_GLOBAL"), module = pop("STACK_GLOBAL");
                if (name->kind != Value::String || module->kind != Value::String)
                    fail("STACK_GLOBAL without module and name strings");
                pushGlobal(module->s + "." + name->s);
                break;
            }
            case 'Q': push(persistent(pop("BINPERSID"))); break;
            case 'R': { ValuePtr args = pop("REDUCE"), f = pop("REDUCE"); push(reduce(f, args)); break; }
            case 'b': {                              // BUILD: only an OrderedDict's state (_metadata) is accepted, and dropped
                ValuePtr state = pop("BUILD");
                ValuePtr target = top("BUILD");
                if (m_inert && target->kind == Value::Object) { // a Namespace's fields; numpy.dtype's tuple (dropped)
                    if (state->kind == Value::Dict) {
                        slots(state->dict.size());
                        target->dict = state->dict;
                    }
                    else if (state->kind != Value::Tuple && state->kind != Value::None)
                        fail("BUILD of " + target->s + " with a state that is not a dict or a tuple");
                    break;
                }
                if (target->kind != Value::Dict || (state->kind != Value::Dict && state->kind != Value::None))
                    fail("BUILD on something other than a dict (not a plain state dict)");
                break;
            }
            default:
                refuseOpcode(op, at);
            }
        }
    }

private:
    [[noreturn]] void refuseOpcode(std::uint8_t op, std::size_t at) const
    {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(std::string("opcode ") + hex + (op >= 32 && op < 127 ? std::string(" '") + char(op) + "'" : std::string()) +
             " at byte " + std::to_string(at) + " is not used by a " + what() + "; refused");
    }
    const char *what() const { return m_inert ? "training checkpoint" : "plain state dict"; }

    [[noreturn]] void fail(const std::string &why) const
    {
        throw InferenceError(m_source + ": " + why);
    }
    std::uint8_t byte()
    {
        if (m_at >= m_data.size())
            fail("the pickle ends without STOP");
        return std::uint8_t(m_data[m_at++]);
    }
    std::uint64_t le(int n)
    {
        std::uint64_t v = 0;
        for (int k = 0; k < n; ++k)
            v |= std::uint64_t(byte()) << (8 * k);
        return v;
    }
    std::string bytes(std::uint64_t n)
    {
        if (n > m_data.size() - m_at)
            fail("a string runs past the end of the pickle");
        std::string s = m_data.substr(m_at, std::size_t(n));
        m_at += std::size_t(n);
        return s;
    }
    std::string line()
    {
        const std::size_t end = m_data.find('\n', m_at);
        if (end == std::string::npos || end - m_at > 256)
            fail("a GLOBAL name without an end of line");
        std::string s = m_data.substr(m_at, end - m_at);
        m_at = end + 1;
        return s;
    }
    void push(ValuePtr v)
    {
        if (m_stack.size() >= kMaxStack)
            fail("the pickle's stack grows past " + std::to_string(kMaxStack) + " items");
        m_stack.push_back(std::move(v));
    }
    ValuePtr make(Value::Kind kind)
    {
        if (m_values.size() >= kMaxValues)
            fail("the pickle builds more than " + std::to_string(kMaxValues) + " values (a state dict needs about 20 a tensor)");
        return m_values.make(kind);
    }
    // `n` more places in lists, tuples or dicts (kMaxSlots).
    void slots(std::size_t n)
    {
        if (n > kMaxSlots - m_slots)
            fail("the pickle fills more than " + std::to_string(kMaxSlots)
                 + " places in lists, tuples and dicts (a memoised value put in them again and again); refused");
        m_slots += n;
    }
    void pushInt(long long i) { auto v = make(Value::Int); v->i = i; push(v); }
    void pushString(std::string s) { auto v = make(Value::String); v->s = std::move(s); push(v); }
    void pushGlobal(const std::string &name)
    {
        DType t;
        bool allowed = storageDType(name, &t);
        for (const char *a : kAllowed)
            allowed = allowed || name == a;
        for (const char *a : kInert)
            allowed = allowed || (m_inert && name == a);
        if (!allowed)
            fail("global " + name + " is not allowed in a " + what() + "; refused (nothing was run)");
        auto v = make(Value::Global);
        v->s = name;
        push(v);
    }
    ValuePtr pop(const char *op)
    {
        if (m_stack.empty() || m_stack.back()->kind == Value::Mark)
            fail(std::string(op) + " on an empty stack");
        ValuePtr v = m_stack.back();
        m_stack.pop_back();
        return v;
    }
    ValuePtr top(const char *op)
    {
        if (m_stack.empty() || m_stack.back()->kind == Value::Mark)
            fail(std::string(op) + " on an empty stack");
        return m_stack.back();
    }
    std::vector<ValuePtr> popToMark(const char *op)
    {
        std::size_t k = m_stack.size();
        while (k > 0 && m_stack[k - 1]->kind != Value::Mark)
            --k;
        if (k == 0)
            fail(std::string(op) + " without MARK");
        std::vector<ValuePtr> out(m_stack.begin() + std::ptrdiff_t(k), m_stack.end());
        m_stack.resize(k - 1);
        return out;
    }
    ValuePtr listAt(const char *op)
    {
        ValuePtr v = top(op);
        if (v->kind != Value::List)
            fail(std::string(op) + " on something other than a list");
        return v;
    }
    ValuePtr dictAt(const char *op)
    {
        ValuePtr v = top(op);
        if (v->kind != Value::Dict)
            fail(std::string(op) + " on something other than a dict");
        return v;
    }
    void memoPut(std::uint64_t index)
    {
        if (index >= kMaxMemo)
            fail("memo index " + std::to_string(index) + " too large");
        if (m_memo.size() <= index)
            m_memo.resize(std::size_t(index) + 1);
        m_memo[std::size_t(index)] = top("PUT");
    }
    ValuePtr memoGet(std::uint64_t index)
    {
        if (index >= m_memo.size() || !m_memo[std::size_t(index)])
            fail("memo index " + std::to_string(index) + " was never stored");
        return m_memo[std::size_t(index)];
    }
    long long intOf(const ValuePtr &v, const char *what) const
    {
        if (v->kind != Value::Int)
            fail(std::string(what) + " is not an integer");
        return v->i;
    }

    // ('storage', torch.XStorage, key, location, numel)
    ValuePtr persistent(const ValuePtr &pid)
    {
        if (pid->kind != Value::Tuple || pid->items.size() != 5 || pid->items[0]->kind != Value::String ||
            pid->items[0]->s != "storage" || pid->items[1]->kind != Value::Global || pid->items[2]->kind != Value::String)
            fail("a persistent id that is not ('storage', type, key, location, numel)");
        auto v = make(Value::Storage);
        if (!storageDType(pid->items[1]->s, &v->dtype))
            fail("storage type " + pid->items[1]->s + " is not a tensor storage");
        v->s = pid->items[2]->s;
        v->i = intOf(pid->items[4], "a storage's size");
        if (v->i < 0)
            fail("storage " + v->s + " declares a negative size");
        return v;
    }

    ValuePtr reduce(const ValuePtr &f, const ValuePtr &args)
    {
        if (f->kind != Value::Global || args->kind != Value::Tuple)
            fail("REDUCE of something other than an allowed global with a tuple");
        if (f->s == "collections.OrderedDict") {
            if (!args->items.empty())
                fail("collections.OrderedDict with arguments (not a plain state dict)");
            return make(Value::Dict);
        }
        if (f->s == "torch._utils._rebuild_parameter") { // (tensor, requires_grad, hooks)
            if (args->items.empty() || args->items[0]->kind != Value::TensorRef)
                fail("_rebuild_parameter without a tensor");
            return args->items[0];
        }
        if (f->s == "torch._utils._rebuild_tensor_v2")
            return rebuildTensor(args->items);
        if (m_inert)
            return reduceInert(f->s, args->items);
        fail("global " + f->s + " cannot be called here");
    }

    // The inert classes of a training checkpoint, built as data.
    ValuePtr reduceInert(const std::string &f, const std::vector<ValuePtr> &a)
    {
        if (f == "__builtin__.set" || f == "builtins.set" || f == "__builtin__.frozenset" || f == "builtins.frozenset") {
            auto v = make(Value::List); // set([items]) / frozenset([items]): their items, as a list
            if (a.size() > 1 || (a.size() == 1 && a[0]->kind != Value::List && a[0]->kind != Value::Tuple))
                fail(f + " with arguments that are not one list");
            if (a.size() == 1) {
                slots(a[0]->items.size());
                v->items = a[0]->items;
            }
            return v;
        }
        if (f == "_codecs.encode") { // protocol 2's bytes: _codecs.encode(text, "latin1")
            auto v = make(Value::String);
            if (a.size() != 2 || a[0]->kind != Value::String || a[1]->kind != Value::String
                || (a[1]->s != "latin1" && a[1]->s != "latin-1") || !latin1Bytes(a[0]->s, &v->s))
                fail("_codecs.encode with arguments other than (text of code points < 256, \"latin1\")");
            return v;
        }
        if (f == "numpy.dtype") {
            if (a.empty() || a[0]->kind != Value::String)
                fail("numpy.dtype without a type string");
            auto v = make(Value::Object);
            v->s = f;
            v->items = a;
            return v;
        }
        if (f == "numpy.core.multiarray.scalar") // (dtype, raw bytes) -> the number
            return numpyScalar(a);
        fail("global " + f + " cannot be called here");
    }

    ValuePtr numpyScalar(const std::vector<ValuePtr> &a)
    {
        if (a.size() != 2 || a[0]->kind != Value::Object || a[0]->s != "numpy.dtype" || a[1]->kind != Value::String)
            fail("numpy.core.multiarray.scalar with arguments other than (numpy.dtype, bytes)");
        const std::string &type = a[0]->items[0]->s, &raw = a[1]->s;
        const auto width = [&](std::size_t n) {
            if (raw.size() != n)
                fail("numpy scalar of type " + type + " with " + std::to_string(raw.size()) + " bytes");
        };
        if (type == "f8" || type == "f4") {
            auto v = make(Value::Float);
            if (type == "f8") {
                width(8);
                std::memcpy(&v->f, raw.data(), 8);
            } else {
                width(4);
                float x;
                std::memcpy(&x, raw.data(), 4);
                v->f = x;
            }
            return v;
        }
        if (type == "i8" || type == "i4") {
            auto v = make(Value::Int);
            if (type == "i8") {
                width(8);
                std::memcpy(&v->i, raw.data(), 8);
            } else {
                width(4);
                std::int32_t x;
                std::memcpy(&x, raw.data(), 4);
                v->i = x;
            }
            return v;
        }
        if (type == "b1") {
            width(1);
            auto v = make(Value::Bool);
            v->i = raw[0] != 0;
            return v;
        }
        auto v = make(Value::Object); // another numpy type: kept opaque
        v->s = "numpy scalar " + type;
        return v;
    }

    // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata]): kept as a
    // reference; the numbers are checked and the bytes copied once the tensor's name is known
    // (detail::materialiseStateDict).
    ValuePtr rebuildTensor(const std::vector<ValuePtr> &a)
    {
        if (a.size() < 4 || a[0]->kind != Value::Storage || a[2]->kind != Value::Tuple || a[3]->kind != Value::Tuple ||
            a[2]->items.size() != a[3]->items.size())
            fail("_rebuild_tensor_v2 with arguments that are not (storage, offset, size, stride, ...)");
        intOf(a[1], "a storage offset");
        for (std::size_t d = 0; d < a[2]->items.size(); ++d) {
            intOf(a[2]->items[d], "a tensor size");
            intOf(a[3]->items[d], "a tensor stride");
        }
        auto v = make(Value::TensorRef);
        v->items = {a[0], a[1], a[2], a[3]};
        return v;
    }

    PickleArena m_values;
    const std::string &m_data;
    const std::string &m_source;
    const bool m_inert;
    std::size_t m_at = 0, m_slots = 0;
    std::vector<ValuePtr> m_stack, m_memo;
};

} // namespace

namespace {

TensorMap readPickle(const std::string &pickle, const std::string &source, const detail::StorageBytes &storage)
{
    Unpickler unpickler(pickle, source); // owns the values until the tensors are copied out
    const ValuePtr root = unpickler.run();
    if (root->kind != Value::Dict)
        throw InferenceError(source + ": the pickle is not a state dict (its result is not a dict)");
    return detail::materialiseStateDict(*root, source, storage);
}

// The archive's <name>/data.pkl and its storages (views of the archive in memory, no copies;
// StoredZip refuses entries that share bytes, so the storages together are at most the file).
template<typename Read> auto readArchive(const std::string &path, Read &&read)
{
    const StoredZip zip(path);
    std::string prefix;
    for (const std::string &name : zip.names()) {
        const std::size_t slash = name.find('/');
        if (slash != std::string::npos && name.substr(slash) == "/data.pkl") {
            prefix = name.substr(0, slash + 1);
            break;
        }
    }
    if (prefix.empty())
        throw InferenceError(path + ": no <name>/data.pkl in the archive (not a torch.save file)");
    if (zip.has(prefix + "byteorder") && zip.read(prefix + "byteorder") != "little")
        throw InferenceError(path + ": big-endian tensors are not supported");
    return read(zip.read(prefix + "data.pkl"), path + " (" + prefix + "data.pkl)", [&zip, &path, prefix](const std::string &key) {
        if (key.find('/') != std::string::npos || key.find("..") != std::string::npos)
            throw InferenceError(path + ": storage key \"" + key + "\" is not a plain name");
        return zip.view(prefix + "data/" + key);
    });
}

template<typename Read> auto withArchive(const std::string &path, Read &&read)
{
    try {
        return readArchive(path, std::forward<Read>(read));
    } catch (const std::bad_alloc &) { // a limit that let too much through still ends with the file named
        throw InferenceError(path + ": out of memory while reading it; refused");
    }
}

constexpr int kMaxJsonDepth = 48;

std::string keyText(const PickleValue &k)
{
    switch (k.kind) {
    case Value::String: return k.s;
    case Value::Int: return std::to_string(k.i);
    case Value::Bool: return k.i ? "True" : "False";
    case Value::None: return "None";
    default: return "<key>";
    }
}

// What describe() may still emit (issue 51: only containers were counted, so a list holding 1,000
// references to itself emitted 1,000 "..." leaves per counted list, 3.2 GB). Every element placed
// in the output costs one value, every string, key and shape entry its bytes.
struct DescribeBudget
{
    std::size_t values = 200000;
    std::size_t bytes = 16u << 20;

    bool spend(std::size_t n)
    {
        if (values == 0 || n > bytes) {
            values = 0;
            return false;
        }
        --values;
        bytes -= n;
        return true;
    }
    bool spent() const { return values == 0; }
};

// A training checkpoint's entry as JSON, bounded: nesting past kMaxJsonDepth (or a value that
// contains itself) as "...", and once the budget is spent a container ends with one "..." and
// nothing more is emitted.
nlohmann::json describe(const PickleValue &v, int depth, DescribeBudget *budget)
{
    // The "..." of a cut is an element too: it is paid for like any other.
    if (!budget->spend(v.kind == Value::String || v.kind == Value::Global ? v.s.size() : 8) || depth > kMaxJsonDepth)
        return "...";
    switch (v.kind) {
    case Value::None: return nullptr;
    case Value::Bool: return v.i != 0;
    case Value::Int: return v.i;
    case Value::Float: return v.f;
    case Value::String: return v.s;
    case Value::Tuple:
    case Value::List: {
        nlohmann::json a = nlohmann::json::array();
        for (const PickleValue *x : v.items) {
            if (budget->spent()) {
                a.push_back("...");
                break;
            }
            a.push_back(describe(*x, depth + 1, budget));
        }
        return a;
    }
    case Value::Dict:
    case Value::Object: {
        nlohmann::json o = nlohmann::json::object();
        if (v.kind == Value::Object)
            o["__class__"] = v.s;
        for (const auto &[k, x] : v.dict) {
            std::string key = keyText(*k);
            if (!budget->spend(key.size())) {
                o["..."] = "...";
                break;
            }
            o[std::move(key)] = describe(*x, depth + 1, budget);
        }
        return o;
    }
    case Value::TensorRef: {
        nlohmann::json shape = nlohmann::json::array();
        for (const PickleValue *n : v.items[2]->items) {
            if (!budget->spend(8)) {
                shape.push_back("...");
                break;
            }
            shape.push_back(n->i);
        }
        return {{"tensor", shape}};
    }
    case Value::Global: return "<" + v.s + ">";
    default: return "<" + std::to_string(int(v.kind)) + ">";
    }
}

} // namespace

TensorMap readStateDictPickle(const std::string &pickle, const std::string &source,
                              const std::function<std::string(const std::string &key)> &storage)
{
    std::map<std::string, std::string> cache; // one copy of each storage, handed out as views
    return readPickle(pickle, source, [&](const std::string &key) -> std::string_view {
        auto it = cache.find(key);
        if (it == cache.end())
            it = cache.emplace(key, storage(key)).first;
        return it->second;
    });
}

TensorMap readTorchCheckpoint(const std::string &path)
{
    return withArchive(path, [](const std::string &pickle, const std::string &source, const detail::StorageBytes &storage) {
        return readPickle(pickle, source, storage);
    });
}

TorchTrainingCheckpoint readTorchTrainingCheckpoint(const std::string &path, const std::string &stateDictKey,
                                                    bool withTensors)
{
    return withArchive(path, [&](const std::string &pickle, const std::string &source, const detail::StorageBytes &storage) {
        return readTrainingCheckpointPickle(pickle, source, storage, stateDictKey, withTensors);
    });
}

TorchTrainingCheckpoint readTrainingCheckpointPickle(const std::string &pickle, const std::string &source,
                                                     const std::function<std::string_view(const std::string &key)> &storage,
                                                     const std::string &stateDictKey, bool withTensors)
{
    {
        Unpickler unpickler(pickle, source, true);
        const ValuePtr root = unpickler.run();
        if (root->kind != Value::Dict)
            throw InferenceError(source + ": not a training checkpoint (the pickle's result is not a dict)");
        TorchTrainingCheckpoint out;
        out.entries = nlohmann::json::object();
        const PickleValue *stateDict = nullptr;
        DescribeBudget budget;
        for (const auto &[k, v] : root->dict) {
            const std::string key = keyText(*k);
            if (key == stateDictKey && k->kind == Value::String)
                stateDict = v;
            else if (!budget.spent())
                out.entries[key] = describe(*v, 0, &budget);
            else
                out.entries["..."] = "..."; // the rest is not described (the state dict is still looked for)
        }
        if (!stateDict)
            throw InferenceError(source + ": no \"" + stateDictKey + "\" entry (the model's state dict)");
        if (stateDict->kind != Value::Dict)
            throw InferenceError(source + ": \"" + stateDictKey + "\" is not a state dict (not a dict)");
        for (const auto &[k, v] : stateDict->dict)
            if (k->kind != Value::String || v->kind != Value::TensorRef)
                throw InferenceError(source + ": \"" + stateDictKey + "\" entry \"" + keyText(*k) + "\" is not a named tensor");
        // Every tensor's numbers are checked (sizes, strides, offsets, storages, the bytes they need
        // together) whether or not its bytes are copied: a description (info --checkpoint) refuses
        // what a load refuses (issue 51).
        const std::string stateDictSource = source + " \"" + stateDictKey + "\"";
        if (withTensors)
            out.tensors = detail::materialiseStateDict(*stateDict, stateDictSource, storage);
        else
            detail::checkStateDict(*stateDict, stateDictSource, storage);
        for (const auto &[k, v] : stateDict->dict) {
            std::vector<std::int64_t> &shape = out.shapes[k->s];
            for (const PickleValue *n : v->items[2]->items)
                shape.push_back(n->i);
        }
        return out;
    }
}

} // namespace folio::inference
