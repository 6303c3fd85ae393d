package host

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

// explainStart says in a plugin author's terms why a plugin process did
// not start, where go-plugin's message speaks of Go binaries compiled for
// another architecture: an interpreter named by the #! line that is not
// there (exec says the plugin itself is missing), a plugin that exited
// before its handshake line (its stderr, appended by the caller, says
// why), one that printed something else to stdout first, or one that
// printed no handshake line within limit. Other errors are returned as
// they are.
func explainStart(err error, path string, limit time.Duration) error {
	if strings.Contains(err.Error(), "timeout while waiting for plugin to start") {
		return fmt.Errorf("the plugin printed no handshake line within %v, the most a plugin may take to start: it hangs while starting (a plugin built with the Go sdk calls its Info before printing the line, so an Info that never returns hangs it here)", limit)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(path); serr == nil {
			if interp := shebang(path); interp != "" {
				return fmt.Errorf("cannot run %s: its interpreter %s (its #! line) does not exist or cannot run: %w", path, interp, err)
			}
		}
		return err
	}
	rest, ok := strings.CutPrefix(err.Error(), "Unrecognized remote plugin message: ")
	if !ok {
		return err
	}
	first, _, _ := strings.Cut(rest, "\n")
	if first = strings.TrimSpace(first); first == "" {
		return errors.New("the plugin exited (or closed its stdout) before printing its handshake line")
	}
	return fmt.Errorf("the plugin printed %q to stdout where its handshake line (1|1|tcp|127.0.0.1:PORT|grpc) belongs: a plugin must print nothing else to stdout (write to stderr)", first)
}

// shebang returns the interpreter of a script's #! line and its
// argument (each quoted when it holds a character a terminal would act
// on), as the kernel reads them (parseShebang), "" when the file
// does not start with one.
func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, binprmBuf)
	n, _ := io.ReadFull(f, head)
	name, arg, ok := parseShebang(head[:n])
	if !ok {
		return ""
	}
	if arg != "" {
		return showPath(name) + " " + showPath(arg)
	}
	return showPath(name)
}
