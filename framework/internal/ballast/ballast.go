// Package ballast allocates heap memory that the program never writes:
// a block that counts as live heap for the garbage collector's goal (the
// SDK's heap floor), or address space the heap maps and gives back at
// once (the huge-page reserve of package hugepages).
//
// Such memory costs nothing only while no page of it is touched. Go zeroes
// a large object unless all of it comes from memory the heap has never
// used (fresh from the operating system): one make([]byte, 256 MiB) that
// starts in a few megabytes of freed heap is zeroed whole, and every page
// of it becomes resident. On the virtual machines this project is
// benchmarked on, first-touching memory costs about 2 ms per MiB (a fresh
// 2 MiB huge page 3.6–4.5 ms, measured), so a plugin process whose 256
// MiB reserve landed that way took 0.75–1.2 s longer to start and peaked
// 256 MiB higher: 3 of 200 starts of the logreg plugin did (handshake
// time and VmRSS measured after each start), none of 600 with Alloc.
//
// Alloc therefore allocates in chunks of ChunkSize. A chunk that reuses
// freed heap is zeroed, but that memory was resident already (or, where
// the runtime had returned it to the system, was heap the process had
// used before), and at most one chunk straddles used and fresh memory: a
// block touches no more fresh memory than ChunkSize.
package ballast

import "runtime/debug"

// ChunkSize is the size of the pieces Alloc allocates: large enough that
// a 320 MiB block (the floor and the reserve of a plugin process) is 80
// allocations, no slower than one make (a plugin's start to its
// handshake: 35.8 and 36.7 ms against 36.4 and 35.3 ms with one make,
// medians of 60; 1 MiB chunks took 38 ms), small enough that zeroing one
// fresh chunk costs under 10 ms here.
const ChunkSize = 4 << 20

// Block is memory allocated by Alloc. It holds no pointers, so the
// collector counts it as live heap without scanning it; keep it reachable
// for as long as it must count.
type Block struct {
	chunks [][]byte
}

// Alloc allocates n bytes (rounded up to whole chunks; n ≤ 0 allocates
// nothing) that the caller must never write.
//
// The collector is off while it allocates (debug.SetGCPercent(-1), then
// the previous setting): each chunk would otherwise push the heap past
// its goal again, some 20 collections for 320 MiB in 1 MiB chunks (13–15
// ms against 2.4–3.3 ms with the collector off). Call it where no other
// goroutine changes the collector's setting, as a process's start is.
func Alloc(n int) Block {
	if n <= 0 {
		return Block{}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	chunks := make([][]byte, (n+ChunkSize-1)/ChunkSize)
	for i := range chunks {
		chunks[i] = make([]byte, ChunkSize)
	}
	return Block{chunks: chunks}
}

// Size returns the number of bytes the block holds.
func (b Block) Size() int { return len(b.chunks) * ChunkSize }

// Addr returns the address of the block's first byte (an address inside
// the heap), nil for an empty block.
func (b Block) Addr() *byte {
	if len(b.chunks) == 0 {
		return nil
	}
	return &b.chunks[0][0]
}
