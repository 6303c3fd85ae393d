//go:build !linux

package sharedmem

import "os"

// Create returns ErrUnsupported: there are segments on Linux only.
func Create(size int) (*Segment, error) { return nil, ErrUnsupported }

// Open returns ErrUnsupported: there are segments on Linux only.
func Open(f *os.File, size int) (*Segment, error) { return nil, ErrUnsupported }

// release closes the segment's file.
func (s *Segment) release() error { return s.file.Close() }

// HostSize is DefaultSize: there are no segments but on Linux.
func HostSize() int { return DefaultSize }
