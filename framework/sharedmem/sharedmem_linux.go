package sharedmem

import (
	"encoding/binary"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Create makes a segment of size bytes: an anonymous memory file (memfd)
// of that size, mapped shared. Its pages take memory once written.
func Create(size int) (*Segment, error) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, ErrUnsupported // Dense.shared holds little-endian values
	}
	fd, err := unix.MemfdCreate("polyclass-shared", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("sharedmem: memfd_create: %w", err)
	}
	f := os.NewFile(uintptr(fd), "polyclass-shared")
	if err := f.Truncate(int64(size)); err != nil {
		f.Close()
		return nil, fmt.Errorf("sharedmem: %w", err)
	}
	if size <= Align {
		f.Close()
		return nil, fmt.Errorf("sharedmem: a segment of %d bytes has no room after its %d-byte header", size, Align)
	}
	s, err := Open(f, size)
	if err != nil {
		f.Close()
		return nil, err
	}
	copy(s.mem, header)
	return s, nil
}

// Open maps size bytes of f, a segment's file, shared.
func Open(f *os.File, size int) (*Segment, error) {
	mem, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("sharedmem: mapping %d bytes of %s: %w", size, f.Name(), err)
	}
	return newSegment(f, mem), nil
}

// release unmaps the segment and closes its file.
func (s *Segment) release() error {
	err := unix.Munmap(s.mem)
	if cerr := s.file.Close(); err == nil {
		err = cerr
	}
	return err
}

// HostSize is the size of the segment a host creates per plugin process:
// SizeUnder the process's address-space limit (RLIMIT_AS).
func HostSize() int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &lim); err != nil || lim.Cur == unix.RLIM_INFINITY {
		return DefaultSize
	}
	return SizeUnder(lim.Cur)
}
