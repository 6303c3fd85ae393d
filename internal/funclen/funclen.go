// Package funclen finds the functions of a source tree longer than a
// bound: the check, run by its test and by make lint, that no function of
// the project (tests and generated code aside) is longer than 80 lines
// unless the allow-list names it with its reason.
package funclen

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Func is one function declaration and its length.
type Func struct {
	// File is the file's path, slash-separated, relative to the root.
	File string
	// Name is the function's name, Type.Name for a method.
	Name string
	// Line is the line of its func keyword, Lines its length from there
	// to its closing brace, both included.
	Line, Lines int
}

// Key is the function's allow-list key: "FILE NAME".
func (f Func) Key() string { return f.File + " " + f.Name }

// String locates the function and its length.
func (f Func) String() string {
	return fmt.Sprintf("%s:%d: %s is %d lines long", f.File, f.Line, f.Name, f.Lines)
}

// Longer returns the functions of the Go files under root longer than max
// lines, in file and line order. Test files, generated files (the "Code
// generated … DO NOT EDIT." line), testdata directories and directories
// whose name starts with "." or "_" are left out.
func Longer(root string, max int) ([]Func, error) {
	var long []Func
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		fs, err := fileFuncs(fset, path, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		for _, f := range fs {
			if f.Lines > max {
				long = append(long, f)
			}
		}
		return nil
	})
	return long, err
}

// skipDir reports whether a directory of that name holds no project code.
func skipDir(name string) bool {
	return name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// fileFuncs returns the function declarations with a body of the file at
// path (named rel), none when the file is generated.
func fileFuncs(fset *token.FileSet, path, rel string) ([]Func, error) {
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	var fs []Func
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		fs = append(fs, Func{File: rel, Name: funcName(fd), Line: start, Lines: end - start + 1})
	}
	return fs, nil
}

// funcName is Name, or Type.Name for a method (the receiver's type
// without its pointer and type parameters).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// ReadAllowList reads an allow-list: one function a line, "FILE NAME"
// (Func.Key) then, after '#', the reason, which every entry must give.
// Blank lines and lines starting with '#' are comments. It returns the
// keys, each with its line number.
func ReadAllowList(r io.Reader, name string) (map[string]int, error) {
	keys := map[string]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, "#")
		key = strings.Join(strings.Fields(key), " ")
		if strings.TrimSpace(reason) == "" || len(strings.Fields(key)) != 2 {
			return nil, fmt.Errorf("%s:%d: want FILE FUNCTION # REASON, got %q", name, n, line)
		}
		if prev, dup := keys[key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed already on line %d", name, n, key, prev)
		}
		keys[key] = n
	}
	return keys, sc.Err()
}

// Check compares the long functions with an allow-list (from
// ReadAllowList, named name): it returns one problem for each long
// function the list does not name, and one for each entry that names no
// long function (split since, renamed or gone), in order.
func Check(long []Func, allowed map[string]int, name string, max int) []string {
	var problems []string
	found := map[string]bool{}
	for _, f := range long {
		found[f.Key()] = true
		if _, ok := allowed[f.Key()]; !ok {
			problems = append(problems, fmt.Sprintf("%s, over %d: split it, or add %q to %s with the reason it cannot be", f, max, f.Key(), name))
		}
	}
	var stale []string
	for key, n := range allowed {
		if !found[key] {
			stale = append(stale, fmt.Sprintf("%s:%d: %s is no longer over %d lines (or is gone): remove its line", name, n, key, max))
		}
	}
	sort.Strings(stale)
	return append(problems, stale...)
}
