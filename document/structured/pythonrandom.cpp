#include "document/structured/pythonrandom.h"

#include <stdexcept>
#include <vector>

namespace folio::structured {

namespace {
constexpr int kN = 624, kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
} // namespace

PythonRandom::PythonRandom(std::uint64_t seed)
{
    // CPython: the absolute value of the int as little-endian 32-bit words (at least one).
    std::vector<std::uint32_t> key;
    do {
        key.push_back(std::uint32_t(seed & 0xffffffffu));
        seed >>= 32;
    } while (seed);
    // init_genrand(19650218), then mix in the key (init_by_array).
    m_state[0] = 19650218u;
    for (int i = 1; i < kN; ++i)
        m_state[i] = 1812433253u * (m_state[i - 1] ^ (m_state[i - 1] >> 30)) + std::uint32_t(i);
    int i = 1;
    std::size_t j = 0;
    for (std::size_t k = std::max<std::size_t>(kN, key.size()); k > 0; --k) {
        m_state[i] = (m_state[i] ^ ((m_state[i - 1] ^ (m_state[i - 1] >> 30)) * 1664525u)) + key[j] + std::uint32_t(j);
        if (++i >= kN) {
            m_state[0] = m_state[kN - 1];
            i = 1;
        }
        if (++j >= key.size())
            j = 0;
    }
    for (int k = kN - 1; k > 0; --k) {
        m_state[i] = (m_state[i] ^ ((m_state[i - 1] ^ (m_state[i - 1] >> 30)) * 1566083941u)) - std::uint32_t(i);
        if (++i >= kN) {
            m_state[0] = m_state[kN - 1];
            i = 1;
        }
    }
    m_state[0] = 0x80000000u;
    m_index = kN;
}

void PythonRandom::reload()
{
    for (int k = 0; k < kN; ++k) {
        const std::uint32_t y = (m_state[k] & kUpper) | (m_state[(k + 1) % kN] & kLower);
        m_state[k] = m_state[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    m_index = 0;
}

std::uint32_t PythonRandom::next32()
{
    if (m_index >= kN)
        reload();
    std::uint32_t y = m_state[m_index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

std::uint32_t PythonRandom::getrandbits(int k)
{
    if (k < 1 || k > 32)
        throw std::invalid_argument("PythonRandom::getrandbits: k must be in 1..32");
    return next32() >> (32 - k);
}

std::int64_t PythonRandom::randint(std::int64_t a, std::int64_t b)
{
    const std::uint64_t n = std::uint64_t(b - a) + 1;
    if (b < a || n > 0xffffffffull)
        throw std::invalid_argument("PythonRandom::randint: empty or too wide range");
    int bits = 0;
    for (std::uint64_t v = n; v; v >>= 1)
        ++bits;
    std::uint64_t r = getrandbits(bits);
    while (r >= n)
        r = getrandbits(bits);
    return a + std::int64_t(r);
}

} // namespace folio::structured
