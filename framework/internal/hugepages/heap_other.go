//go:build !linux

package hugepages

// Heap does nothing on systems other than Linux, whose transparent huge
// pages it advises; it returns a function that does nothing.
func Heap() (stop func()) { return func() {} }
