//go:build linux

package hugepages

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// childEnv names the heap check a re-executed test binary runs (see
// TestMain): the advice has to be seen in a fresh process, whose heap no
// other test has grown or advised.
const childEnv = "HUGEPAGES_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := child(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// vma is what smaps says of the mapping holding an address.
type vma struct {
	advised  bool  // VmFlags has hg (MADV_HUGEPAGE)
	hugeKiB  int64 // AnonHugePages
	residKiB int64 // Rss
}

// vmaOf reads /proc/self/smaps for the mapping that holds p.
func vmaOf(p unsafe.Pointer) (vma, error) {
	addr := uintptr(p)
	text, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return vma{}, err
	}
	var v vma
	in := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		// A mapping's header line is a maps line; its attribute lines
		// ("Rss:  16384 kB") are not.
		if m, err := parseMapping(line); err == nil {
			if in {
				return v, nil
			}
			in = m.Lo <= addr && addr < m.Hi
			continue
		}
		if !in {
			continue
		}
		switch f[0] {
		case "AnonHugePages:":
			v.hugeKiB, _ = strconv.ParseInt(f[1], 10, 64)
		case "Rss:":
			v.residKiB, _ = strconv.ParseInt(f[1], 10, 64)
		case "VmFlags:":
			for _, fl := range f[1:] {
				v.advised = v.advised || fl == "hg"
			}
		}
	}
	if in {
		return v, nil
	}
	return vma{}, fmt.Errorf("no mapping holds %#x", addr)
}

// child runs in a fresh process: it advises its heap, writes a block,
// grows the heap past the reserve, stops the advice and grows it again,
// printing what smaps says after each step.
func child() error {
	stop := Heap()
	const written = 16 << 20
	fallbacks := thpFallbacks()
	b := make([]byte, written)
	for i := range b {
		b[i] = 1
	}
	v, err := vmaOf(unsafe.Pointer(&b[0]))
	if err != nil {
		return err
	}
	fmt.Printf("written advised=%v huge=%d rss=%d fallbacks=%d\n", v.advised, v.hugeKiB, v.residKiB, thpFallbacks()-fallbacks)

	// Larger than the free reserve: its end lies in a mapping the runtime
	// makes now, after the advice.
	grown := make([]byte, Reserve+64<<20)
	adv, err := advisedAfterCollection(unsafe.Pointer(&grown[len(grown)-1]))
	if err != nil {
		return err
	}
	fmt.Printf("grown advised=%v\n", adv)

	stop()
	later := make([]byte, Reserve+64<<20)
	if adv, err = advisedAfterCollection(unsafe.Pointer(&later[len(later)-1])); err != nil {
		return err
	}
	fmt.Printf("later advised=%v\n", adv)
	runtime.KeepAlive(b)
	runtime.KeepAlive(grown)
	return nil
}

// thpFallbacks returns thp_fault_fallback of /proc/vmstat: how many
// faults in regions meant for huge pages the kernel served with small
// pages, having no free huge page (system-wide), or -1 without it.
func thpFallbacks() int64 {
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "thp_fault_fallback "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// advisedAfterCollection runs collect and reports whether the mapping
// holding p is then advised.
func advisedAfterCollection(p unsafe.Pointer) (bool, error) {
	if err := collect(); err != nil {
		return false, err
	}
	v, err := vmaOf(p)
	return v.advised, err
}

// collect runs two collections, each followed by the finalizer of an
// object that became garbage in it. The finalizers of a program run one
// after the other on one goroutine, and runtime.GC returns after the
// sweep that queues them; so once the second probe has run, every
// finalizer queued by the first collection (the adviser's) has too.
func collect() error {
	for range 2 {
		done := make(chan struct{})
		probe := &struct{ _ [16]byte }{}
		runtime.SetFinalizer(probe, func(*struct{ _ [16]byte }) { close(done) })
		probe = nil
		runtime.GC()
		select {
		case <-done:
		case <-time.After(time.Minute):
			return fmt.Errorf("the finalizer of a probe did not run within a minute of a collection")
		}
	}
	return nil
}

// runChild runs child in a fresh test process with extra environment
// variables and returns its output as key → line.
func runChild(t *testing.T, env ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, rest, _ := strings.Cut(l, " ")
		lines[k] = rest
	}
	return lines
}

// thpMode returns the bracketed choice of
// /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise",
// "never"), or "" without transparent huge pages.
func thpMode(t *testing.T) string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	s := string(b)
	i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
	if i < 0 || j < i {
		t.Fatalf("unexpected transparent_hugepage/enabled: %q", s)
	}
	return s[i+1 : j]
}

func TestHeapAdvisesTheHeap(t *testing.T) {
	got := runChild(t)
	mode := thpMode(t)
	var advised bool
	var huge, rss, fallbacks int64
	if _, err := fmt.Sscanf(got["written"], "advised=%t huge=%d rss=%d fallbacks=%d", &advised, &huge, &rss, &fallbacks); err != nil {
		t.Fatalf("child wrote %q: %v", got["written"], err)
	}
	if mode != "" && !advised {
		t.Errorf("the mapping of a written 16 MiB block is not advised (MADV_HUGEPAGE; system setting %q)", mode)
	}
	// A written 16 MiB block spans at least seven whole 2 MiB pages. The
	// kernel serves such a fault with small pages when it has no free huge
	// page (it counts those fallbacks): then the advice was taken, though
	// the memory was not there.
	switch mode {
	case "always", "madvise":
		if huge < 7*2048 && fallbacks <= 0 {
			t.Errorf("written 16 MiB block: AnonHugePages of its mapping %d KiB, want at least 7 huge pages (14336 KiB) or a fallback the kernel counted; Rss %d KiB", huge, rss)
		}
	default:
		if huge != 0 {
			t.Errorf("system setting %q, yet AnonHugePages %d KiB", mode, huge)
		}
	}
	if mode != "" && got["grown"] != "advised=true" {
		t.Errorf("a mapping made after the advice, past the reserve: %q, want advised after a collection", got["grown"])
	}
	if got["later"] != "advised=false" {
		t.Errorf("a mapping made after stop: %q, want not advised", got["later"])
	}
}

func TestHeapOff(t *testing.T) {
	for _, env := range []string{Env + "=off", "GODEBUG=disablethp=1"} {
		got := runChild(t, env)
		if !strings.HasPrefix(got["written"], "advised=false huge=0 ") {
			t.Errorf("%s: written block %q, want neither advised nor huge", env, got["written"])
		}
		if got["grown"] != "advised=false" {
			t.Errorf("%s: grown heap %q, want not advised", env, got["grown"])
		}
	}
}
