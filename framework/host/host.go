// Package host discovers, starts and stops plugin processes and hands out
// typed clients for them. Each plugin binary runs as one process for the
// whole run; its stderr goes to the run log and is kept for error messages.
//
// The typed clients (LearnerClient, ReducerClient) are the host's side of
// the plugin protocol; the plugin's side is package sdk.
package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// BinaryPrefix starts the file name of every plugin binary.
const BinaryPrefix = "bench-plugin-"

// Binary is a plugin binary found on disk.
type Binary struct {
	Name string // the name experiment files use: the file name without BinaryPrefix
	Path string
	// SHA256 is the lower-case hex digest of the file, taken when the
	// host first starts it (Discover leaves it empty): a run reads only
	// the binaries it starts, each once for its digest, and go-plugin's
	// SecureConfig checks the file against it at every start.
	SHA256 string
}

// Discover lists the plugin binaries in dir, sorted by name, without
// reading them (their SHA256 is empty).
func Discover(dir string) ([]Binary, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("plugins dir: %w", err)
	}
	var out []Binary
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, BinaryPrefix) || e.IsDir() {
			continue
		}
		// Followed when a link: a FIFO or device would block the reading
		// of its digest.
		path := filepath.Join(dir, name)
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() || info.Mode()&0o111 == 0 {
			continue
		}
		out = append(out, Binary{Name: strings.TrimSuffix(strings.TrimPrefix(name, BinaryPrefix), ".exe"), Path: path})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// SplitDirs splits a list of directories separated by
// os.PathListSeparator (":" on Unix, as in PATH), leaving out empty
// entries ("bin:" is bin): an empty PATH entry is the working directory,
// which a list of plugin directories never means.
func SplitDirs(list string) []string {
	var out []string
	for _, d := range filepath.SplitList(list) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// JoinDirs is the list SplitDirs reads back as dirs: the directories
// separated by os.PathListSeparator. It refuses an empty directory and
// one whose path holds the separator, which a list cannot name (no
// quoting exists: PATH has none).
func JoinDirs(dirs []string) (string, error) {
	for _, d := range dirs {
		if d == "" {
			return "", errors.New("an empty directory in a list of plugin directories")
		}
		if strings.ContainsRune(d, os.PathListSeparator) {
			return "", fmt.Errorf("plugins directory %q holds %q, which separates the directories of a list: a list cannot name it", d, string(os.PathListSeparator))
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator)), nil
}

// ShowDirs writes dirs for a message: as JoinDirs joins them when it
// can, else each quoted.
func ShowDirs(dirs []string) string {
	if list, err := JoinDirs(dirs); err == nil {
		return list
	}
	q := make([]string, len(dirs))
	for i, d := range dirs {
		q[i] = strconv.Quote(d)
	}
	return strings.Join(q, " and ")
}

// checkAbsolute refuses a relative directory: the host would search it
// in whatever the working directory is, a place no one chose.
func checkAbsolute(dirs []string) error {
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("plugins directory %q is relative: a host searches absolute directories only (a relative one would be looked up in the working directory)", d)
		}
	}
	return nil
}

// discoverAll is Discover over a list of directories (see New): the
// binaries of each, a name found earlier hiding the same name later.
func discoverAll(dirs []string) ([]Binary, error) {
	if err := checkAbsolute(dirs); err != nil {
		return nil, err
	}
	var out []Binary
	seen := map[string]bool{}
	for _, dir := range dirs {
		bins, err := Discover(dir)
		if err != nil {
			return nil, err
		}
		for _, b := range bins {
			if !seen[b.Name] {
				seen[b.Name] = true
				out = append(out, b)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// NotExecutable returns the paths of the files in dirs named like plugins (BinaryPrefix…) that Discover leaves
// out because no one may execute them: a plugin copied without its mode,
// say.
func NotExecutable(dirs []string) []string {
	var out []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), BinaryPrefix) || !e.Type().IsRegular() {
				continue
			}
			if info, err := e.Info(); err == nil && info.Mode()&0o111 == 0 {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}

// fileSHA256 returns the SHA-256 of the regular file at path. The file is
// opened without blocking and refused unless regular: opening a FIFO for
// reading waits for a writer (bench plugin check on a FIFO hung, deaf to
// SIGTERM), and a device never ends.
func fileSHA256(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%s)", path, fileKind(info.Mode()))
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileKind names the kind of a file that is not regular.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// Plugin is a running plugin process.
type Plugin struct {
	Binary
	// Learner and LearnerInfo are set when the plugin serves a learner.
	Learner     *LearnerClient
	LearnerInfo *plugin.LearnerInfo
	// Reducer and ReducerInfo are set when the plugin serves a reducer.
	Reducer     *ReducerClient
	ReducerInfo *plugin.ReducerInfo

	client *goplugin.Client
	cmd    *exec.Cmd
	stderr *tailBuffer

	uploadMu sync.Mutex
	uploads  map[string]*sync.Mutex
	// held holds the digests the process is known to hold: uploaded, or
	// found there, and not forgotten since (see EnsureDataset).
	held   map[string]bool
	killed atomic.Bool

	// closeLocal ends a plugin served in-process (Host.Register).
	closeLocal func()
	closeOnce  sync.Once
	// release, when set, runs once the process is stopped: the socket
	// directory of a plugin started alone (Open).
	release func()
	// cancelStart ends the context of the process's command, which kills
	// it (see launch); called once the process is stopped.
	cancelStart context.CancelFunc

	// shared is the memory segment the host shares with the plugin
	// (package sharedmem), or nil; the clients place score matrices in it
	// when the plugin's Info declares shared_memory.
	shared *sharedmem.Segment
}

// EnsureDataset uploads m to the learner unless it already holds it, and
// reports whether it uploaded. Concurrent calls for the same dataset wait
// for each other, so a dataset travels once per process however many folds
// and problems use it (unless the plugin evicted it meanwhile). A dataset
// this process was sent, or found to hold, is not asked about again until
// Forget or Lost names it: the folds of a grid that share a design matrix
// make no call each. A plugin that evicted it on its own answers the next
// Fit or Predict that it does not hold it; the caller then calls Lost and
// uploads again.
func (p *Plugin) EnsureDataset(ctx context.Context, m *matrix.EncodedMatrix) (bool, error) {
	p.uploadMu.Lock()
	if p.uploads == nil {
		p.uploads = map[string]*sync.Mutex{}
	}
	mu := p.uploads[m.Digest]
	if mu == nil {
		mu = &sync.Mutex{}
		p.uploads[m.Digest] = mu
	}
	p.uploadMu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	if p.holds(m.Digest) {
		return false, nil
	}
	uploaded, err := p.Learner.Ensure(ctx, m)
	if err == nil {
		p.setHeld(true, m.Digest)
	}
	return uploaded, err
}

// holds reports whether the process is known to hold dataset digest.
func (p *Plugin) holds(digest string) bool {
	p.uploadMu.Lock()
	defer p.uploadMu.Unlock()
	return p.held[digest]
}

// setHeld records whether the process holds the datasets digests.
func (p *Plugin) setHeld(held bool, digests ...string) {
	p.uploadMu.Lock()
	defer p.uploadMu.Unlock()
	if p.held == nil {
		p.held = map[string]bool{}
	}
	for _, d := range digests {
		if held {
			p.held[d] = true
		} else {
			delete(p.held, d)
		}
	}
}

// Lost records that the learner answered that it does not hold dataset
// digest (its cache evicted it): the next EnsureDataset asks again.
func (p *Plugin) Lost(digest string) { p.setHeld(false, digest) }

// Forget tells the learner to drop the datasets digests, which the next
// EnsureDataset of each sends again.
func (p *Plugin) Forget(ctx context.Context, digests ...string) error {
	p.setHeld(false, digests...)
	err := p.Learner.Forget(ctx, digests...)
	p.setHeld(false, digests...) // an EnsureDataset meanwhile found them still there
	return err
}

// Version returns the version the plugin reports.
func (p *Plugin) Version() string {
	if p.LearnerInfo != nil {
		return p.LearnerInfo.Version
	}
	if p.ReducerInfo != nil {
		return p.ReducerInfo.Version
	}
	return ""
}

// Runtime returns the software the plugin reports it computes with (its
// learner's report, else its reducer's; see plugin.Component): for a Go
// plugin the Go version and modules of its binary, for a Python plugin its
// interpreter and packages. It is nil for a plugin that reports none.
func (p *Plugin) Runtime() []plugin.Component {
	if p.LearnerInfo != nil && len(p.LearnerInfo.Runtime) > 0 {
		return p.LearnerInfo.Runtime
	}
	if p.ReducerInfo != nil {
		return p.ReducerInfo.Runtime
	}
	return nil
}

// Exited reports whether the plugin process has ended. A plugin served
// in-process (no client, as in tests) never ends.
func (p *Plugin) Exited() bool { return p.client != nil && p.client.Exited() }

// CPUTime returns the CPU time the plugin's process has used (Linux only).
func (p *Plugin) CPUTime() (time.Duration, error) {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0, errors.New("the plugin runs in-process")
	}
	return cpuTime(p.cmd.Process.Pid)
}

// Stderr returns the last lines the plugin wrote to stderr.
func (p *Plugin) Stderr() string { return p.stderr.String() }

// ShutdownGrace bounds how long a plugin may take to answer the graceful
// shutdown, and then to exit after being killed: a plugin that stops
// answering (a deadlock, SIGSTOP) must not keep its host from leaving.
const ShutdownGrace = 2 * time.Second

// InterruptGrace is the graceful shutdown's bound when the run was
// interrupted (Host.Abort): Ctrl-C ends bench within about a second
// whatever its plugins do.
const InterruptGrace = 300 * time.Millisecond

// stop ends a plugin client and its process: a graceful shutdown first,
// then SIGKILL to the plugin's process group when the process has not
// exited within grace; it returns within about grace + ShutdownGrace
// whatever the process does. go-plugin's Client.Kill sends the gRPC
// shutdown without a deadline, so it runs aside while a timer kills the
// process, which also ends the shutdown call.
func stop(client *goplugin.Client, cmd *exec.Cmd, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		client.Kill()
		close(done)
	}()
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	killGroup(cmd)
	select {
	case <-done:
	case <-time.After(ShutdownGrace):
	}
}

// Stop ends the plugin process (graceful shutdown, then SIGKILL; see
// stop): the caller of Open stops its plugin with it.
func (p *Plugin) Stop() { p.stopWithin(ShutdownGrace) }

// stopWithin is Stop with grace as the graceful shutdown's bound.
func (p *Plugin) stopWithin(grace time.Duration) {
	switch {
	case p.closeLocal != nil:
		p.closeOnce.Do(p.closeLocal)
	case p.client != nil: // none: a stand-in (Unstarted) or a caller's own connection, no process
		stop(p.client, p.cmd, grace)
	}
	if p.cancelStart != nil {
		p.cancelStart()
	}
	if p.release != nil {
		p.release()
	}
	if p.shared != nil {
		p.shared.Close() //nolint:errcheck // unmapping cannot fail in a way the caller could act on
	}
}

// Killed reports whether the host has stopped the plugin process after a
// call did not answer in time (KillFirst): the calls in flight on it then
// fail with a closed connection before the process is seen to exit.
func (p *Plugin) Killed() bool { return p.killed.Load() }

// KillFirst stops the plugin process and reports whether this call was
// the first to ask for it: of several calls that time out together on a
// stuck process, one owns the kill and the others were collateral.
func (p *Plugin) KillFirst() bool {
	first := p.killed.CompareAndSwap(false, true) && !p.Exited()
	p.Stop()
	return first
}

// Host starts plugins from a list of directories, each at most once.
type Host struct {
	// dirs are the directories searched, in order.
	dirs []string
	log  io.Writer

	mu       sync.Mutex
	binaries map[string]Binary
	running  map[string]*startResult
	local    map[string]InProcess    // served in-process (Register)
	calls    map[string]*callCounter // by plugin name
	// profileDir, when set, asks every plugin process started from now
	// on for CPU and heap profiles in it (SetProfileDir).
	profileDir string
	// hashFile reads a binary's digest (fileSHA256; tests count the
	// reads).
	hashFile func(path string) (string, error)
	// socks is the directory of the plugins' unix sockets (see
	// newSockets), made at the first start and removed by Close.
	socks *sockets
	// startTimeout is StartTimeout, unless a test sets a shorter one.
	startTimeout time.Duration
}

type startResult struct {
	once sync.Once
	done atomic.Bool
	p    *Plugin
	err  error
}

// New returns a Host for the plugins in the directories of list,
// separated by os.PathListSeparator (":" on Unix, as in PATH; see
// SplitDirs): NewDirs(SplitDirs(list), log). A directory whose path holds
// the separator cannot be named this way: NewDirs takes it.
func New(list string, log io.Writer) *Host {
	return NewDirs(SplitDirs(list), log)
}

// NewDirs returns a Host for the plugins in dirs, each one directory
// taken whole, searched in order: a plugin found in an earlier one hides
// any of its name in a later one. Every directory must be absolute (the
// host refuses to list or start plugins otherwise). Plugin stderr is
// copied to log (which may be nil), each line prefixed with the plugin's
// name.
func NewDirs(dirs []string, log io.Writer) *Host {
	if log == nil {
		log = io.Discard
	}
	return &Host{dirs: slices.Clone(dirs), log: &syncWriter{w: log}, running: map[string]*startResult{}, hashFile: fileSHA256, startTimeout: StartTimeout}
}

// Open starts the plugin binary at path, whatever its file name: the
// plugin's name is the file name without BinaryPrefix. Its stderr is
// copied to log (which may be nil). The caller stops it with Kill.
func Open(ctx context.Context, path string, log io.Writer) (*Plugin, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), BinaryPrefix), ".exe")
	if notExecutable(path) {
		return nil, fmt.Errorf("plugin %s: %s is not executable (chmod +x %s)", name, path, path)
	}
	h := NewDirs([]string{filepath.Dir(path)}, log)
	p, err := h.start(ctx, Binary{Name: name, Path: path})
	if err != nil {
		h.removeSockets()
		return nil, err
	}
	p.release = h.removeSockets
	return p, nil
}

// socketDir returns the directory for the unix sockets of the plugins the
// host starts (see newSockets), made on first use; "" where go-plugin
// serves over TCP.
func (h *Host) socketDir() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.socks == nil {
		s, err := newSockets(socketsParent())
		if err != nil {
			return "", err
		}
		h.socks = s
	}
	if h.socks == nil {
		return "", nil
	}
	return h.socks.dir, nil
}

// removeSockets removes the host's socket directory, once its plugins are
// stopped.
func (h *Host) removeSockets() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.socks.remove()
	h.socks = nil
}

// SetProfileDir asks the plugin processes the host starts from now on to
// write CPU and heap profiles to dir, through the environment variable
// wire.ProfileDirEnv (Go plugins served by sdk.Serve do; others may
// ignore it). An empty dir asks for none.
func (h *Host) SetProfileDir(dir string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.profileDir = dir
}

// Dir returns the plugins directories for a message (see ShowDirs).
func (h *Host) Dir() string { return ShowDirs(h.dirs) }

// Dirs returns the plugins directories, in the order they are searched.
func (h *Host) Dirs() []string { return slices.Clone(h.dirs) }

// Binaries lists the plugin binaries of the host's directory.
func (h *Host) Binaries() ([]Binary, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.binaries == nil {
		var bins []Binary
		if len(h.dirs) > 0 || len(h.local) == 0 {
			var err error
			if bins, err = discoverAll(h.dirs); err != nil {
				return nil, err
			}
		}
		h.binaries = map[string]Binary{}
		for _, b := range bins {
			h.binaries[b.Name] = b
		}
		for name := range h.local {
			h.binaries[name] = Binary{Name: name, Path: InProcessPath}
		}
	}
	out := make([]Binary, 0, len(h.binaries))
	for _, b := range h.binaries {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// ErrNotFound is returned for a plugin name with no binary.
var ErrNotFound = errors.New("plugin not found")

// Get returns the running plugin name, starting it on first use, and
// starting it again when its process has ended (it crashed, or was killed
// after a hung call): a plugin's failure then costs only the cells it was
// running.
func (h *Host) Get(ctx context.Context, name string) (*Plugin, error) {
	bins, err := h.Binaries()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	b, ok := h.binaries[name]
	r := h.running[name]
	if r != nil && r.done.Load() && r.p != nil && r.p.Exited() {
		r.p.Stop()
		fmt.Fprintf(h.log, "[%s] plugin process ended (%s); starting a new one\n", name, r.p.ExitReason())
		r = nil
	}
	if r == nil {
		r = &startResult{}
		h.running[name] = r
	}
	impl, local := h.local[name]
	h.mu.Unlock()
	if !ok {
		for _, dir := range h.dirs {
			if path := filepath.Join(dir, BinaryPrefix+name); notExecutable(path) {
				return nil, fmt.Errorf("%w: %s is not executable (chmod +x %s)", ErrNotFound, path, path)
			}
		}
		names := make([]string, len(bins))
		for i, b := range bins {
			names[i] = b.Name
		}
		return nil, fmt.Errorf("%w: no %s%s in %s (found: %s)", ErrNotFound, BinaryPrefix, name, h.Dir(), strings.Join(names, ", "))
	}
	r.once.Do(func() {
		if local {
			r.p, r.err = h.startInProcess(ctx, b, impl)
			r.done.Store(true)
			return
		}
		if r.err = h.shadowedByNotExecutable(b); r.err != nil {
			r.done.Store(true)
			return
		}
		r.p, r.err = h.start(ctx, b)
		r.done.Store(true)
	})
	return r.p, r.err
}

// Unstarted returns a stand-in for plugin name, whose start failed (Get
// returned the error): its binary, with the SHA-256 taken for the start
// (else the file's now, "" when it cannot be read), serving nothing and
// with no process. A run keeps it as the plugin of the learner whose
// cells then fail with the start's error (engine.Learner.StartErr). It
// returns nil when name has no binary in the host's directories.
func (h *Host) Unstarted(name string) *Plugin {
	if _, err := h.Binaries(); err != nil {
		return nil
	}
	h.mu.Lock()
	b, ok := h.binaries[name]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	if sum, err := h.checksum(b); err == nil {
		b = sum
	}
	return &Plugin{Binary: b, stderr: newTailBuffer(0)}
}

// notExecutable says whether path is a regular file that no one may
// execute: a plugin copied or built without its mode.
func notExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 == 0
}

// shadowedByNotExecutable refuses to start b when a directory searched
// before b's holds a file of b's name that is not executable: discovery
// passes over it (as PATH does), and the run would otherwise use b, an
// older build of a later directory, say, without a word.
func (h *Host) shadowedByNotExecutable(b Binary) error {
	for _, dir := range h.dirs {
		path := filepath.Join(dir, BinaryPrefix+b.Name)
		if path == b.Path || filepath.Dir(b.Path) == filepath.Clean(dir) {
			return nil
		}
		if notExecutable(path) {
			return fmt.Errorf("plugin %s: %s is not executable (chmod +x %s), so %s, found later in the plugin directories, would run in its place; make the first executable, or move it away", b.Name, path, path, b.Path)
		}
	}
	return nil
}

// Running returns the plugin's current process if it is up, else nil; it
// never starts one.
func (h *Host) Running(name string) *Plugin {
	h.mu.Lock()
	r := h.running[name]
	h.mu.Unlock()
	if r == nil || !r.done.Load() || r.p == nil || r.p.Exited() {
		return nil
	}
	return r.p
}

// start starts the binary b after taking its digest (checksum), unless
// another local user could replace it (replaceable).
func (h *Host) start(ctx context.Context, b Binary) (*Plugin, error) {
	if err := replaceable(b.Path); err != nil {
		return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	sockDir, err := h.socketDir()
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	b, err = h.checksum(b)
	if err != nil {
		return nil, err
	}
	return h.launch(ctx, b, sockDir)
}

// StartTimeout bounds a plugin's start: its handshake line (go-plugin's
// ClientConfig.StartTimeout), then, separately, its answers to the Info
// probes. A fold's cv.timeout does not count a start (engine).
const StartTimeout = time.Minute

// launch starts the process of b, whose SHA256 SecureConfig checks, in
// named steps: its command and environment (its unix socket in sockDir),
// go-plugin's client, the handshake, the services it serves and their
// Info probes.
func (h *Host) launch(ctx context.Context, b Binary, sockDir string) (*Plugin, error) {
	sum, err := hex.DecodeString(b.SHA256)
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	// A start that ctx interrupts (Ctrl-C while a plugin starts, or one
	// that never prints its handshake line) kills the process, which ends
	// go-plugin's wait for the handshake; once started, the process lives
	// until stopped, whatever ctx does.
	startCtx, cancelStart := context.WithCancel(context.WithoutCancel(ctx))
	cmd := processCommand(startCtx, b.Path)
	shared := newSegment()
	h.setEnv(cmd, shared, sockDir)
	tail := newTailBuffer(64 << 10)
	// What the plugin writes is escaped before it is kept or relayed.
	stderr := &escapeWriter{w: io.MultiWriter(tail, &prefixWriter{prefix: "[" + b.Name + "] ", w: h.log})}
	client := goplugin.NewClient(h.clientConfig(b.Name, cmd, sum, stderr))
	p := &Plugin{Binary: b, client: client, cmd: cmd, stderr: tail, shared: shared, cancelStart: cancelStart}
	rpc, err := handshake(ctx, client, cancelStart, b.Path, h.startTimeout)
	if err != nil {
		return p.failStart(ctx, err)
	}
	lc, rc := dispense(rpc, shared)
	probeCtx, cancel := context.WithTimeout(ctx, h.startTimeout)
	defer cancel()
	if err := p.probe(probeCtx, lc, rc); err != nil {
		// The call's deadline may end it (the plugin's server sees it
		// first and answers DeadlineExceeded) a moment before probeCtx's
		// own timer marks probeCtx done: either says the limit passed.
		late := errors.Is(probeCtx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
		if ctx.Err() == nil && late {
			err = fmt.Errorf("the plugin did not answer Info within %v, the most a plugin may take to start: %w", h.startTimeout, err)
		}
		return p.failStart(ctx, err)
	}
	return p, nil
}

// processCommand returns the command of a plugin process at path, killed
// with its process group when startCtx ends, and with bench. A path
// without a separator ("--plugins ." gives "bench-plugin-x") is run from
// the working directory, as checked, never looked up on $PATH.
func processCommand(startCtx context.Context, path string) *exec.Cmd {
	if !strings.ContainsRune(path, filepath.Separator) {
		path = "." + string(filepath.Separator) + path
	}
	cmd := exec.CommandContext(startCtx, path)
	cmd.Cancel = func() error {
		killGroup(cmd)
		return nil
	}
	dieWithParent(cmd)
	return cmd
}

// setEnv sets what cmd's process is told through its environment and
// descriptors: the profile directory, the socket directory sockDir and
// the shared memory segment (descriptor 3), when there are; the host's
// environment otherwise, without the variables only the host sets (a
// POLYCLASS_PROFILE_DIR left exported in the shell made the plugins of a
// run without --profile write profiles there, into cells/ say): an
// environment of its own, so go-plugin must not add the host's.
func (h *Host) setEnv(cmd *exec.Cmd, shared *sharedmem.Segment, sockDir string) {
	h.mu.Lock()
	profileDir := h.profileDir
	h.mu.Unlock()
	var env []string
	if profileDir != "" {
		env = append(env, wire.ProfileDirEnv+"="+profileDir)
	}
	if sockDir != "" {
		env = append(env, goplugin.EnvUnixSocketDir+"="+sockDir)
	}
	if shared != nil {
		// The process's descriptor 3: the first of ExtraFiles.
		cmd.ExtraFiles = []*os.File{shared.File()}
		env = append(env, sharedmem.Env+"="+shared.EnvValue(3))
	}
	// go-plugin adds the host's environment unless told not to; an
	// earlier value of these variables there must not win.
	cmd.Env = append(hostEnv(os.Environ()), env...)
}

// hostEnv returns environ without the variables through which the host
// speaks to its plugins (wire.ProfileDirEnv, sharedmem.Env).
func hostEnv(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == wire.ProfileDirEnv || name == sharedmem.Env
	})
}

// clientConfig is go-plugin's configuration of the client of plugin name
// running cmd, whose binary has the SHA-256 sum, its stderr going to
// stderr; cmd has its environment set (setEnv).
func (h *Host) clientConfig(name string, cmd *exec.Cmd, sum []byte, stderr io.Writer) *goplugin.ClientConfig {
	return &goplugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		StartTimeout:     h.startTimeout,
		VersionedPlugins: PluginSets(),
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		SkipHostEnv:      true, // setEnv set cmd's
		// The checksum taken at discovery guards against the binary
		// changing between discovery and start.
		SecureConfig: &goplugin.SecureConfig{Checksum: sum, Hash: sha256.New()},
		// Stderr carries what the process writes to file descriptor 2
		// (panics, runtime errors); SyncStderr what its Go code writes to
		// os.Stderr, which go-plugin forwards over gRPC.
		Stderr:          stderr,
		SyncStderr:      stderr,
		Logger:          hclog.NewNullLogger(),
		GRPCDialOptions: append(dialOptions(), grpc.WithStatsHandler(h.counter(name))),
	}
}

// handshake starts the process of client and waits for its handshake;
// ctx ending first cancels the start (cancelStart), and the error says
// the start was interrupted. A failed start's error is explained for the
// binary at path, whose handshake line was awaited for limit
// (explainStart).
func handshake(ctx context.Context, client *goplugin.Client, cancelStart context.CancelFunc, path string, limit time.Duration) (goplugin.ClientProtocol, error) {
	interrupt := context.AfterFunc(ctx, cancelStart)
	rpc, err := client.Client()
	interrupted := !interrupt()
	if err != nil && interrupted {
		return nil, fmt.Errorf("start interrupted: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, explainStart(err, path, limit)
	}
	return rpc, nil
}

// dispense returns the learner and reducer clients of the services the
// plugin serves (nil for one it does not), each placing score matrices in
// the shared segment.
func dispense(rpc goplugin.ClientProtocol, shared *sharedmem.Segment) (*LearnerClient, *ReducerClient) {
	var lc *LearnerClient
	var rc *ReducerClient
	if raw, err := rpc.Dispense(wire.LearnerPluginName); err == nil {
		lc = raw.(*LearnerClient)
		lc.Share(shared)
	}
	if raw, err := rpc.Dispense(wire.ReducerPluginName); err == nil {
		rc = raw.(*ReducerClient)
		rc.Share(shared)
	}
	return lc, rc
}

// failStart ends the start of p that failed with err: it stops the
// process (with a short grace when ctx ended), frees its segment and
// returns err with what the process wrote to stderr, naming the plugin.
func (p *Plugin) failStart(ctx context.Context, err error) (*Plugin, error) {
	grace := ShutdownGrace
	if ctx.Err() != nil {
		grace = InterruptGrace
	}
	stop(p.client, p.cmd, grace)
	p.cancelStart()
	if p.shared != nil {
		p.shared.Close() //nolint:errcheck // the start failed; that error is the one to report
	}
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		err = fmt.Errorf("%w\nplugin stderr:\n%s", err, s)
	}
	return nil, fmt.Errorf("plugin %s (%s): %w", p.Name, p.Path, err)
}

// newSegment creates the memory segment for a plugin the host starts,
// sized to the host's address-space limit (sharedmem.HostSize), or
// returns nil where there are none (not Linux), so that score matrices go
// inline.
func newSegment() *sharedmem.Segment {
	seg, err := sharedmem.Create(sharedmem.HostSize())
	if err != nil {
		return nil
	}
	return seg
}

// checksum returns b with its SHA256: the one taken when the host first
// started the binary, so that a process started again (after a crash)
// must be the same file, else the file's digest now, which it keeps.
func (h *Host) checksum(b Binary) (Binary, error) {
	if b.SHA256 != "" {
		return b, nil
	}
	h.mu.Lock()
	known := h.binaries[b.Name]
	h.mu.Unlock()
	if known.Path == b.Path && known.SHA256 != "" {
		b.SHA256 = known.SHA256
		return b, nil
	}
	sum, err := h.hashFile(b.Path)
	if err != nil {
		return b, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	b.SHA256 = sum
	h.mu.Lock()
	if known, ok := h.binaries[b.Name]; ok && known.Path == b.Path {
		known.SHA256 = sum
		h.binaries[b.Name] = known
	}
	h.mu.Unlock()
	return b, nil
}

// probe asks the plugin's learner and reducer services for their Info and
// keeps those that answer; a service the plugin does not serve answers
// Unimplemented. The probes are not counted in Calls (see uncounted).
func (p *Plugin) probe(ctx context.Context, lc *LearnerClient, rc *ReducerClient) error {
	ctx = uncounted(ctx)
	if lc != nil {
		info, err := lc.Info(ctx)
		switch {
		case err == nil:
			p.Learner, p.LearnerInfo = lc, &info
		case status.Code(err) != codes.Unimplemented:
			return err
		}
	}
	if rc != nil {
		info, err := rc.Info(ctx)
		switch {
		case err == nil:
			p.Reducer, p.ReducerInfo = rc, &info
		case status.Code(err) != codes.Unimplemented:
			return err
		}
	}
	if p.Learner == nil && p.Reducer == nil {
		return errors.New("serves neither a learner nor a reducer")
	}
	if err := badInfoText(p.LearnerInfo, p.ReducerInfo); err != nil {
		return err
	}
	var errs []error
	if p.LearnerInfo != nil {
		errs = append(errs, badDefaults("learner "+p.LearnerInfo.Name, p.LearnerInfo.Params))
	}
	if p.ReducerInfo != nil {
		for _, sc := range p.ReducerInfo.Schemes {
			errs = append(errs, badDefaults("scheme "+sc.Name, sc.Params))
		}
	}
	return errors.Join(errs...)
}

// badDefaults reports the parameters of what whose default fails their
// own schema (a plugin's bug, which bench plugin check also reports): the
// plugin would be handed a value it declares invalid whenever the
// experiment leaves the parameter out.
func badDefaults(what string, specs []plugin.ParamSpec) error {
	var errs []error
	for _, s := range specs {
		if err := s.CheckDefault(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	return errors.Join(errs...)
}

// Close stops every plugin the host started, all at once, so that it
// returns within about twice ShutdownGrace however many plugins hang.
func (h *Host) Close() { h.closeWithin(ShutdownGrace) }

// Abort stops every plugin the host started as Close does, with
// InterruptGrace for their graceful shutdown: for a run that was
// interrupted, which must end within a second or two even when plugins
// are stopped (SIGSTOP) or stuck.
func (h *Host) Abort() { h.closeWithin(InterruptGrace) }

func (h *Host) closeWithin(grace time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range h.running {
		if r.done.Load() && r.p != nil {
			wg.Go(func() { r.p.stopWithin(grace) })
		}
	}
	wg.Wait()
	h.socks.remove()
	h.socks = nil
}

// ExitReason describes how the plugin's process ended ("exit status 3",
// "signal: killed", killed by the host after a timeout); call it once
// Exited is true.
func (p *Plugin) ExitReason() string {
	switch {
	case p.killed.Load():
		return "killed by the host after a call did not answer in time"
	case p.cmd.ProcessState != nil:
		return p.cmd.ProcessState.String()
	}
	return "exited"
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// prefixWriter prefixes each line with a tag.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mid    bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	var out bytes.Buffer
	for _, c := range b {
		if !p.mid {
			out.WriteString(p.prefix)
			p.mid = true
		}
		out.WriteByte(c)
		if c == '\n' {
			p.mid = false
		}
	}
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// syncWriter serialises writes from several plugins.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// NameMismatch describes how the names the plugin declares in its Info
// differ from its own name, the file name without BinaryPrefix, by which
// experiment files and the host know it (the declared names are used
// nowhere else); "" when they agree.
func (p *Plugin) NameMismatch() string {
	var declared, names []string
	if p.LearnerInfo != nil && p.LearnerInfo.Name != p.Name {
		declared, names = append(declared, fmt.Sprintf("learner %q", p.LearnerInfo.Name)), append(names, p.LearnerInfo.Name)
	}
	if p.ReducerInfo != nil && p.ReducerInfo.Name != p.Name {
		declared, names = append(declared, fmt.Sprintf("reducer %q", p.ReducerInfo.Name)), append(names, p.ReducerInfo.Name)
	}
	if len(declared) == 0 {
		return ""
	}
	return fmt.Sprintf("%s declares itself %s, but the host knows a plugin by its file name: experiment files and reports call it %q; "+
		"rename the file %s or the name in its Info to make them agree",
		filepath.Base(p.Path), strings.Join(declared, " and "), p.Name, BinaryPrefix+names[0])
}
