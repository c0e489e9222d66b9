#pragma once
// Python's `random` module, the part the product benchmark's bootstrap uses: random.seed(int)
// (MT19937 seeded through init_by_array with the integer's 32-bit words) and
// random.randint(a, b) (rejection sampling over getrandbits(bit_length(b - a + 1))). Same seed,
// same sequence as CPython 3, so bootstrap standard deviations come out exactly as published.

#include <array>
#include <cstdint>

namespace folio::structured {

class PythonRandom
{
public:
    explicit PythonRandom(std::uint64_t seed);
    std::uint32_t next32();              // genrand_uint32
    std::uint32_t getrandbits(int k);    // 1 <= k <= 32
    std::int64_t randint(std::int64_t a, std::int64_t b); // inclusive; b - a < 2^32

private:
    std::array<std::uint32_t, 624> m_state{};
    int m_index = 624;
    void reload();
};

} // namespace folio::structured
