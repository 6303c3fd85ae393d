package layering

import (
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path; root its directory, from this package's.
const (
	module = "github.com/polyclass/polyclass"
	root   = "../.."
	doc    = "docs/development.md"
)

// realTable reads the package map of docs/development.md.
func realTable(t *testing.T) *Table {
	t.Helper()
	src, err := os.ReadFile(root + "/" + doc)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ParseTable(src, doc)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// moduleGraph lists the module's packages and their non-test imports.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return ParseGraph(out, module)
}

// TestModuleLayering: every import of every package of the module is one
// the package map of docs/development.md allows.
func TestModuleLayering(t *testing.T) {
	g := moduleGraph(t)
	if len(g) < 60 {
		t.Fatalf("go list found %d packages of the module, want all of them (60 or more)", len(g))
	}
	for _, err := range realTable(t).Check(g) {
		t.Error(err)
	}
}

// TestSidesOfTheContract: the arrows the package map exists to refuse,
// each added to the module's real graph, fail with a message that names
// the import and the row that refuses it: the host on the plugin-author
// SDK (as on main before the contract package), the SDK on the host, the
// contract or the shard assignment on anything with gRPC, the plugin
// test helper from non-test code.
func TestSidesOfTheContract(t *testing.T) {
	tab, real := realTable(t), moduleGraph(t)
	for _, tc := range []struct {
		from, to, want string
	}{
		{"framework/host", "framework/sdk", "framework/host imports framework/sdk, which docs/development.md:"},
		{"framework/sdk", "framework/host", "framework/sdk imports framework/host, which docs/development.md:"},
		{"framework/plugin", "framework/internal/protov1", "framework/plugin imports framework/internal/protov1, which docs/development.md:"},
		{"framework/shard", "framework/engine", "framework/shard imports framework/engine, which docs/development.md:"},
		{"framework/report", "framework/host", "framework/report imports framework/host, which docs/development.md:"},
		{"framework/engine", "framework/internal/plugintest", "framework/engine imports framework/internal/plugintest, which docs/development.md:"},
	} {
		t.Run(tc.from+"->"+tc.to, func(t *testing.T) {
			g := maps.Clone(real)
			g[tc.from] = append(slices.Clone(g[tc.from]), tc.to)
			errs := tab.Check(g)
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), tc.want) {
				t.Fatalf("got %v, want one error starting %q", errs, tc.want)
			}
			line := tab.Rules[tc.from].Line
			if !strings.Contains(errs[0].Error(), doc+":"+strconv.Itoa(line)+" does not allow") {
				t.Errorf("%v: want the refusing row's line %d", errs[0], line)
			}
		})
	}
}

// small is a package map of four packages in three layers.
const small = `text before
<!-- layering: begin -->
| layer | package | what it is | may import (and what those may) |
| --- | --- | --- | --- |
| 0 base | ` + "`a`" + ` | a leaf | — |
| 1 contract | ` + "`b`" + ` | on a | ` + "`a`" + ` |
| 2 sides | ` + "`c`" + ` | one side | ` + "`b`" + ` |
| 2 sides | ` + "`d`" + ` | the other | ` + "`b`" + ` |
<!-- layering: end -->
`

// TestCheck: the imports a small table allows (its own and, transitively,
// its imports') pass; each other import, package without a row and row
// without a package fails with its message.
func TestCheck(t *testing.T) {
	tab, err := ParseTable([]byte(small), "map.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"allowed, directly and transitively",
			map[string][]string{"a": {}, "b": {"a"}, "c": {"b", "a"}, "d": {"a"}}, nil},
		{"one side on the other",
			map[string][]string{"a": {}, "b": {"a"}, "c": {"d"}, "d": {"b"}},
			[]string{"c imports d, which map.md:7 does not allow (it may import b and what they may)"}},
		{"an arrow back up",
			map[string][]string{"a": {"b"}, "b": {}, "c": {}, "d": {}},
			[]string{"a imports b, which map.md:5 does not allow (it may import no package of the module)"}},
		{"a package without a row",
			map[string][]string{"a": {}, "b": {}, "c": {}, "d": {}, "e": {"a"}},
			[]string{"package e has no row in map.md's package map: add one, with its layer and what it may import"}},
		{"a row without a package",
			map[string][]string{"a": {}, "b": {}, "c": {}},
			[]string{"map.md:8: package d is not a package of the module"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := tab.Check(tc.graph)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestTableRules: a table whose rows allow a higher layer, or form a
// cycle, fails whatever the imports; a malformed table does not parse.
func TestTableRules(t *testing.T) {
	row := func(layer, pkg, may string) string {
		return "| " + layer + " | `" + pkg + "` | x | " + may + " |\n"
	}
	table := func(rows ...string) string {
		return Begin + "\n| layer | package | what it is | may import |\n| --- | --- | --- | --- |\n" + strings.Join(rows, "") + End + "\n"
	}
	for _, tc := range []struct {
		name, src string
		graph     map[string][]string
		want      string
	}{
		{"a row allows a higher layer", table(row("0 base", "a", "`b`"), row("1 top", "b", "—")),
			map[string][]string{"a": {}, "b": {}},
			"map.md:4: a (layer 0) may import b of layer 1 above it: an arrow back up"},
		{"rows in a cycle", table(row("0 base", "a", "`b`"), row("0 base", "b", "`a`")),
			map[string][]string{"a": {}, "b": {}},
			"map.md:4: a may import itself through the rows: a cycle"},
		{"a row allows a package without a row", table(row("0 base", "a", "`z`")),
			map[string][]string{"a": {}},
			"map.md:4: a may import z, which has no row"},
		{"a layer without its number", table(row("base", "a", "—")), nil,
			`map.md:4: the layer "base" does not start with its number`},
		{"a row of three cells", table("| 0 | `a` | x |\n"), nil,
			"map.md:4: a row has 4 cells (layer, package, what it is, may import), this one 3"},
		{"a package twice", table(row("0 base", "a", "—"), row("0 base", "a", "—")), nil,
			"map.md:5: package a has a row already (line 4)"},
		{"no table", "# nothing\n", nil,
			`map.md: no table: the line "<!-- layering: begin -->" is missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ParseTable([]byte(tc.src), "map.md")
			if err != nil {
				if err.Error() != tc.want {
					t.Errorf("parse: got %q, want %q", err, tc.want)
				}
				return
			}
			errs := tab.Check(tc.graph)
			if len(errs) == 0 || errs[0].Error() != tc.want {
				t.Errorf("got %v, want first %q", errs, tc.want)
			}
		})
	}
}

// TestParseGraph: the packages of the module, their paths relative to
// it, and only their imports of the module.
func TestParseGraph(t *testing.T) {
	out := "github.com/polyclass/polyclass/framework/host context github.com/polyclass/polyclass/framework/plugin google.golang.org/grpc\n" +
		"github.com/polyclass/polyclass/framework/plugin context\n" +
		"golang.org/x/other github.com/polyclass/polyclass/framework/plugin\n"
	g := ParseGraph([]byte(out), module)
	if len(g) != 2 || strings.Join(g["framework/host"], " ") != "framework/plugin" || len(g["framework/plugin"]) != 0 {
		t.Errorf("got %v, want host → plugin and plugin alone", g)
	}
}

// TestNoRPCBelowTheWire: the contract and the packages that write results
// link no gRPC and no go-plugin, not even through a dependency (on
// c93e781, shard's import of the engine pulled 72 gRPC packages).
func TestNoRPCBelowTheWire(t *testing.T) {
	pkgs := []string{"./framework/plugin", "./framework/shard", "./framework/report", "./framework/results"}
	cmd := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var rpc []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "google.golang.org/grpc") || strings.HasPrefix(p, "github.com/hashicorp/go-plugin") {
			rpc = append(rpc, p)
		}
	}
	if len(rpc) > 0 {
		t.Errorf("go list -deps %s lists %d RPC packages, want none: %s", strings.Join(pkgs, " "), len(rpc), strings.Join(rpc, ", "))
	}
}
