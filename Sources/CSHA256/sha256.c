#include "CSHA256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate_right(uint32_t word, unsigned count) {
    return (word >> count) | (word << (32 - count));
}

void courier_sha256_blocks(uint32_t state[8], const void *bytes, size_t blocks) {
    uint32_t hash[8];
    memcpy(hash, state, sizeof hash);
    for (size_t block = 0; block < blocks; block++) {
        /* One copy of the block into a local: the message words are then read from memory only
           this function can see. */
        unsigned char local[64];
        memcpy(local, (const unsigned char *)bytes + block * 64, sizeof local);
        uint32_t schedule[64];
        for (int i = 0; i < 16; i++) {
            schedule[i] = (uint32_t)local[4 * i] << 24 | (uint32_t)local[4 * i + 1] << 16
                | (uint32_t)local[4 * i + 2] << 8 | (uint32_t)local[4 * i + 3];
        }
        for (int i = 16; i < 64; i++) {
            uint32_t early = schedule[i - 15], late = schedule[i - 2];
            uint32_t sigma0 = rotate_right(early, 7) ^ rotate_right(early, 18) ^ (early >> 3);
            uint32_t sigma1 = rotate_right(late, 17) ^ rotate_right(late, 19) ^ (late >> 10);
            schedule[i] = schedule[i - 16] + sigma0 + schedule[i - 7] + sigma1;
        }
        uint32_t a = hash[0], b = hash[1], c = hash[2], d = hash[3];
        uint32_t e = hash[4], f = hash[5], g = hash[6], h = hash[7];
        for (int i = 0; i < 64; i++) {
            uint32_t choose = (e & f) ^ (~e & g);
            uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            uint32_t first = h + (rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25)) + choose
                + round_constants[i] + schedule[i];
            uint32_t second = (rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22)) + majority;
            h = g;
            g = f;
            f = e;
            e = d + first;
            d = c;
            c = b;
            b = a;
            a = first + second;
        }
        hash[0] += a;
        hash[1] += b;
        hash[2] += c;
        hash[3] += d;
        hash[4] += e;
        hash[5] += f;
        hash[6] += g;
        hash[7] += h;
    }
    memcpy(state, hash, sizeof hash);
}
