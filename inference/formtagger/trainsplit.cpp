// The recipe's dev split, reproducing Python's random.seed(n) + random.shuffle bit for bit
// (MT19937 init_by_array, getrandbits, _randbelow).
#include "inference/formtagger/trainer.h"

#include <algorithm>
#include <cstdint>

namespace folio::inference {

namespace {

class PyRandom
{
public:
    explicit PyRandom(std::uint32_t seed)
    {
        initGenrand(19650218u);
        // init_by_array with key = {seed}
        const std::uint32_t key[1] = {seed};
        const int keyLength = 1;
        int i = 1, j = 0;
        for (int k = std::max(624, keyLength); k; --k) {
            m_mt[i] = (m_mt[i] ^ ((m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) * 1664525u)) + key[j] + std::uint32_t(j);
            ++i;
            ++j;
            if (i >= 624) { m_mt[0] = m_mt[623]; i = 1; }
            if (j >= keyLength) j = 0;
        }
        for (int k = 623; k; --k) {
            m_mt[i] = (m_mt[i] ^ ((m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) * 1566083941u)) - std::uint32_t(i);
            ++i;
            if (i >= 624) { m_mt[0] = m_mt[623]; i = 1; }
        }
        m_mt[0] = 0x80000000u;
    }
    std::uint32_t next()
    {
        if (m_index >= 624) {
            for (int k = 0; k < 624; ++k) {
                const std::uint32_t y = (m_mt[k] & 0x80000000u) | (m_mt[(k + 1) % 624] & 0x7fffffffu);
                m_mt[k] = m_mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
            }
            m_index = 0;
        }
        std::uint32_t y = m_mt[m_index++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }
    std::uint32_t randBelow(std::uint32_t n)
    {
        int k = 0;
        while ((n >> k) != 0) ++k; // bit_length
        std::uint32_t r;
        do {
            r = next() >> (32 - k);
        } while (r >= n);
        return r;
    }

private:
    void initGenrand(std::uint32_t s)
    {
        m_mt[0] = s;
        for (int i = 1; i < 624; ++i)
            m_mt[i] = 1812433253u * (m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) + std::uint32_t(i);
        m_index = 624;
    }
    std::uint32_t m_mt[624];
    int m_index = 624;
};

} // namespace

void splitTrainDev(std::vector<TaggerPage> pages, std::vector<TaggerPage> *train, std::vector<TaggerPage> *dev,
                   unsigned seed, int devCount)
{
    std::stable_sort(pages.begin(), pages.end(), [](const TaggerPage &a, const TaggerPage &b) { return a.id < b.id; });
    std::vector<size_t> idx(pages.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    PyRandom rng(seed);
    for (size_t i = idx.size(); i-- > 1;) {
        const size_t j = rng.randBelow(std::uint32_t(i + 1));
        std::swap(idx[i], idx[j]);
    }
    train->clear();
    dev->clear();
    std::vector<char> isDev(pages.size(), 0);
    for (size_t k = 0; k < idx.size() && int(k) < devCount; ++k)
        isDev[idx[k]] = 1;
    for (size_t i = 0; i < pages.size(); ++i)
        (isDev[i] ? dev : train)->push_back(pages[i]);
}

std::vector<TaggerPage> nestedSample(std::vector<TaggerPage> pages, int count, unsigned seed)
{
    std::vector<TaggerPage> rest, sample;
    splitTrainDev(std::move(pages), &rest, &sample, seed, count);
    return sample;
}

} // namespace folio::inference
