#!/usr/bin/env python3
"""Independent reference for encode.HashString / HashBucket golden values.

h = FNV-1a 64 over LE64(seed) || utf8(s), then murmur3 fmix64.
bucket = h mod B, sign = -1 if bit 63 set else +1.
"""
M = (1 << 64) - 1

def fmix64(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & M
    h ^= h >> 33
    return h

def hash_string(seed, s):
    h = 14695981039346656037
    for b in seed.to_bytes(8, "little") + s.encode("utf-8"):
        h ^= b
        h = (h * 1099511628211) & M
    return fmix64(h)

cases = [(0, ""), (0, "color=red"), (1, "color=red"), (0, "diag_1=250.83"), (42, "safety=high"), (0, "a×b=x×y")]
for seed, s in cases:
    h = hash_string(seed, s)
    print(f'{{{seed}, "{s}", 0x{h:016x}, {h % 1024}, {-1 if h >> 63 else 1}}},')
