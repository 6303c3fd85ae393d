// Package hugepages asks Linux to back the Go heap of a process with
// transparent huge pages (2 MiB) where the system leaves that to the
// program (/sys/kernel/mm/transparent_hugepage/enabled = madvise, the
// default of many distributions).
//
// The processes of a run fill large pointer-free arrays: data columns,
// design matrices, solver workspaces, score matrices. Backed by 4 KiB
// pages, every page is a fault the first time it is written; on the
// virtual machines this project is benchmarked on a fault costs about
// 12 µs, so a 256 MiB heap costs 0.8 s of faults and a 2 MiB huge page
// 0.1–4 ms instead of 512 faults (6 ms). The Go runtime does not give
// this advice itself (it stopped in Go 1.21.1: golang.org/issue/63334),
// because a heap that shrinks may keep whole huge pages resident.
//
// Advice applies to a mapping, and the runtime maps its heap in pieces as
// it grows, each new piece without it, and writes the piece soon after.
// Heap therefore first makes the heap map a reserve (a block allocated,
// never written and dropped: its pages are never resident), then advises
// every heap mapping, and again after each garbage collection in which
// the heap's mappings grew. Under strict overcommit accounting
// (vm.overcommit_memory = 2), where even unwritten mappings count against
// the commit limit, it makes no reserve.
//
// Setting POLYCLASS_HUGEPAGES=off, or GODEBUG=disablethp=1 (the runtime's
// own switch, which marks the heap's mappings as not for huge pages),
// leaves the heap alone.
package hugepages

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Env is the environment variable that turns the advice off when set to
// "off" (or "0", "false").
const Env = "POLYCLASS_HUGEPAGES"

// Reserve is the size of the block Heap allocates and drops so that the
// heap maps that much address space before the advice. Its pages are
// never written (package ballast allocates it so that the runtime does
// not zero it), so it costs no resident memory; the heap's later growth
// beyond it is advised after the next collection.
const Reserve = 256 << 20

// reserveNeeded returns the size of the block to allocate and drop so
// that the heap holds Reserve bytes of free address space, given free,
// what it holds now, and overcommit, the contents of
// /proc/sys/vm/overcommit_memory. Under strict accounting ("2") every
// mapped byte counts against the system's commit limit whether written or
// not, so there is no reserve: only the heap's own mappings are advised.
func reserveNeeded(free uint64, overcommit string) int64 {
	if strings.TrimSpace(overcommit) == "2" || free >= Reserve {
		return 0
	}
	return Reserve - int64(free)
}

// Disabled reports whether the environment turns the advice off: Env set
// to "off", "0" or "false", or GODEBUG containing disablethp=1.
func Disabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(Env))) {
	case "off", "0", "false":
		return true
	}
	for _, kv := range strings.Split(getenv("GODEBUG"), ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return true
		}
	}
	return false
}

// disabled is Disabled for this process's environment.
func disabled() bool { return Disabled(os.Getenv) }

// Mapping is one line of /proc/PID/maps: the address range [Lo, Hi), its
// permissions ("rw-p") and whether it is anonymous memory (no file, no
// kernel name such as "[stack]"; a name given by the program,
// "[anon:…]", counts as anonymous).
type Mapping struct {
	Lo, Hi    uintptr
	Perms     string
	Anonymous bool
}

// ParseMaps parses the text of /proc/PID/maps. An error names the line
// (counting from 1) and what is wrong with it.
func ParseMaps(text []byte) ([]Mapping, error) {
	var ms []Mapping
	for i, line := range strings.Split(string(text), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := parseMapping(line)
		if err != nil {
			return nil, fmt.Errorf("maps line %d: %w", i+1, err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// parseMapping parses one line: "lo-hi perms offset dev inode [path]".
func parseMapping(line string) (Mapping, error) {
	f := strings.Fields(line)
	if len(f) < 5 {
		return Mapping{}, fmt.Errorf("%d fields, want at least 5 (range, perms, offset, device, inode): %q", len(f), line)
	}
	lo, hi, ok := strings.Cut(f[0], "-")
	if !ok {
		return Mapping{}, fmt.Errorf("address range %q has no '-'", f[0])
	}
	l, err := strconv.ParseUint(lo, 16, 64)
	if err != nil {
		return Mapping{}, fmt.Errorf("start address %q: %w", lo, err)
	}
	h, err := strconv.ParseUint(hi, 16, 64)
	if err != nil {
		return Mapping{}, fmt.Errorf("end address %q: %w", hi, err)
	}
	if h < l {
		return Mapping{}, fmt.Errorf("address range %q ends before it starts", f[0])
	}
	if len(f[1]) != 4 {
		return Mapping{}, fmt.Errorf("permissions %q, want 4 characters such as rw-p", f[1])
	}
	path := ""
	if len(f) > 5 {
		path = strings.Join(f[5:], " ")
	}
	anon := f[4] == "0" && (path == "" || strings.HasPrefix(path, "[anon:"))
	return Mapping{Lo: uintptr(l), Hi: uintptr(h), Perms: f[1], Anonymous: anon}, nil
}

// HeapRanges returns the private writable mappings of the run of adjacent
// anonymous mappings that contains addr: the Go heap's address space when
// addr is a heap address (the runtime reserves it as one run: mapped
// pieces and reserved, inaccessible ones between and after them). It
// returns nothing when no anonymous mapping contains addr.
func HeapRanges(ms []Mapping, addr uintptr) []Mapping {
	at := -1
	for i, m := range ms {
		if m.Lo <= addr && addr < m.Hi {
			at = i
			break
		}
	}
	if at < 0 || !ms[at].Anonymous {
		return nil
	}
	lo, hi := at, at
	for lo > 0 && ms[lo-1].Anonymous && ms[lo-1].Hi == ms[lo].Lo {
		lo--
	}
	for hi+1 < len(ms) && ms[hi+1].Anonymous && ms[hi+1].Lo == ms[hi].Hi {
		hi++
	}
	var out []Mapping
	for _, m := range ms[lo : hi+1] {
		if strings.HasPrefix(m.Perms, "rw") && m.Perms[3] == 'p' {
			out = append(out, m)
		}
	}
	return out
}
