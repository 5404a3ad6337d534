#ifndef COURIER_CSHA256_H
#define COURIER_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/* SHA-256's compression function (FIPS 180-4, section 6.2.2) over `blocks` consecutive 64-byte
   blocks at `bytes`, updating the eight words of `state`. Used by CourierTestServer's upload
   checksums; written in C so that unoptimised and sanitized test builds hash tens of mebibytes
   quickly (unoptimised C is far faster than unoptimised Swift, and its working words are
   locals no other function sees, which ThreadSanitizer does not instrument). */
void courier_sha256_blocks(uint32_t state[8], const void *bytes, size_t blocks);

#endif
